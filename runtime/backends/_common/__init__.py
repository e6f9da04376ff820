"""Code the backends share that is not Ivy's per-backend shape (one module per concern).

* ``primitives``: the protocol of each backend's ``primitives`` table.
* ``package``: re-exporting a backend's functions; its cached native dtype answers.
* ``indexing``: positions NumPy's indexing selects (for gathers and scatters).
* ``promote``: operands cast to the standard's result dtype (the one promotion table).
* ``complex_special``: complex (and ``floor_divide``) special values from the standard's tables.
* ``linalg``: shape and scaling rules of the linalg and fft extensions.
* ``array_api_fft``: the fft functions of backends whose arrays follow the standard.
* ``out``: writing a result into a native ``out`` when a function cannot forward ``out``.

Nothing here imports a backend package or anything above the backends; this package
imports none of its modules, so importing one loads only what it needs.
"""
