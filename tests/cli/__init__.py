"""The command line, one file per subcommand or concern (``understudy.cli``)."""
