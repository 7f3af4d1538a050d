"""The command line's entry point: the Typer app, its root options (--verbose, --config, --preset, --set), the
commands registered on it in help order, and main(); arguments → Settings → library call, rendering only.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from typer import _click  # the Click that Typer vendors: its group is what parses the command line
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup
from typer.exceptions import Abort
from typer.rich_utils import rich_format_error

from research_crawler.cli.eval_command import evaluate
from research_crawler.cli.inspect_commands import config_show, models_download, page
from research_crawler.cli.library_commands import library_app, watch
from research_crawler.cli.options import GlobalOptions
from research_crawler.cli.output import fail, print_error
from research_crawler.cli.run_commands import ask, batch, chat, demo, resume
from research_crawler.cli.serve_command import serve
from research_crawler.config.settings_files import CONFIG_FILE_NAME, preset_names
from research_crawler.errors import ConfigError

#: Root options that take a value and that a user may give after the command too (`ask … --set NAME=VALUE`).
_ROOT_VALUE_OPTIONS = ("--set", "--config")


def root_options_first(args: list[str]) -> list[str]:
    """`args` with every ``--set NAME=VALUE`` and ``--config FILE`` moved before the command, where Click reads them
    (nothing after a ``--`` is touched): a fix a message prints ("allow it with: --set fetch.allowed_hosts=…")
    works appended to the command line as it was typed."""
    front: list[str] = []
    rest: list[str] = []
    position = 0
    while position < len(args):
        token = args[position]
        if token == "--":
            rest.extend(args[position:])
            break
        if token.partition("=")[0] in _ROOT_VALUE_OPTIONS and ("=" in token or position + 1 < len(args)):
            taken = 1 if "=" in token else 2
            front.extend(args[position : position + taken])
            position += taken
            continue
        rest.append(token)
        position += 1
    return front + rest


class _RootGroup(TyperGroup):
    """The root command group: reads its `--set`/`--config` wherever they stand (`root_options_first`), and says
    what was mistyped in one line (Click's usage errors, which Typer draws as a box of several)."""

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, root_options_first(args))

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:  # without standalone mode Click raises its usage errors and returns the exit code it would leave with
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except NoArgsIsHelpError as exc:  # a bare command: its help, as Typer shows it
            rich_format_error(exc)
            raise SystemExit(exc.exit_code) from None
        except UsageError as exc:
            command = exc.ctx.command_path if exc.ctx else self.name
            print_error(f"{exc.format_message()} (see: {command} --help)")
            raise SystemExit(exc.exit_code) from None
        except ClickException as exc:
            print_error(exc.format_message())
            raise SystemExit(exc.exit_code) from None
        except Abort:
            print_error("aborted")
            raise SystemExit(1) from None
        raise SystemExit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_RootGroup,
    name="research-crawler",
    help="Answer research requests by exploring websites the way a careful person does.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
config_app = typer.Typer(help="The settings in force and where each comes from.", no_args_is_help=True)
models_app = typer.Typer(help="Model weights used offline (the reranker).", no_args_is_help=True)
app.add_typer(config_app, name="config")
app.add_typer(models_app, name="models")
app.add_typer(library_app, name="library")


@app.callback()
def _root(
    ctx: typer.Context,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what happens.")] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help=f"Settings file to use instead of ./{CONFIG_FILE_NAME} or the one in the user config directory.",
            dir_okay=False,
        ),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option("--preset", help=f"A named configuration: {', '.join(preset_names())}.", metavar="NAME"),
    ] = None,
    assignments: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="NAME=VALUE",
            help="Override one setting, e.g. --set fetch.per_host_delay_s=2; a list takes commas: "
            "--set fetch.allowed_hosts=127.0.0.1:8001,example.org",
        ),
    ] = None,
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    parsed: dict[str, Any] = {}
    for text in assignments or []:
        from research_crawler.config.overrides import parse_assignment  # the settings load only when --set is used

        try:
            name, value = parse_assignment(text)
        except ConfigError as exc:
            fail(f"--set: {exc}")
        parsed[name] = value
    if preset is not None and preset not in preset_names():
        fail(f"unknown preset {preset!r}; known presets: {', '.join(preset_names())}")
    ctx.obj = GlobalOptions(config_file=config, preset=preset, assignments=parsed)


# The commands, in the order `--help` lists them.
app.command()(ask)
app.command()(chat)
app.command()(batch)
app.command()(demo)
app.command()(resume)
app.command()(watch)
app.command()(serve)
app.command("eval")(evaluate)
app.command()(page)
config_app.command("show")(config_show)
models_app.command("download")(models_download)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
