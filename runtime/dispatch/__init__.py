"""The dispatcher: what runs between a call of ``ivy.add`` and the backend's ``add``.

The map (which module does what, the tiers, the runtime's layers) is the docstring of
:mod:`ivycheck.runtime.func_wrapper`, the decorators' module a reader of Ivy looks for first.
This package imports none of its modules, so importing one loads only what it needs.
"""
