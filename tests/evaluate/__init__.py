"""The Hugging Face evaluate drop-in (``understudy.evaluate``)."""
