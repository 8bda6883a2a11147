"""The repository's shape: layout, start-up, the docs' examples, the wheel."""
