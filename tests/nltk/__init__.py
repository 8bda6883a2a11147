"""The NLTK drop-in (``understudy.nltk``) and NLTK's own tests."""
