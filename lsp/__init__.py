"""The ivycheck language server."""
