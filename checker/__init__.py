"""The ivycheck engine: discovery, configuration, index, rule runner, reporters and CLI."""
