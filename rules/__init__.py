"""The ivycheck rule set: one module per rule."""
