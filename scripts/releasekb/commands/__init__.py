"""The `releasekb` commands, one module each; cli.py lists them, builds the parser from them and
dispatches.

Each command module has:
- `NAME`, the command's name;
- `add_arguments(subparsers, shared)`: adds its parser, named NAME, to `subparsers`; `shared`
  are the parent parsers of the options every data command also takes after its name (`--data`);
- `run(args) -> int`, the exit status (EXIT_*);
- optionally `needs_data(args) -> bool`, for a command that may run without a data folder.

A command imports what it runs inside `run`, not at the top: `releasekb --help` and wrong usage
then answer without importing MkDocs and the site (tests/test_cli.py checks it).
"""

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
