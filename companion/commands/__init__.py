"""One module per `companion` sub-command; each defines `register(subparsers)`.

The CLI discovers the modules here, so adding a command never edits a shared list.
"""
