"""Each backend's payloads, built from its documented layout, apart from emit's decoders (payloads.py lists the cases)."""
