"""Generated data files read by the rules (see ``scripts/gen_native_out.py``)."""
