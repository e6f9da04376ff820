"""Reference runtime."""
