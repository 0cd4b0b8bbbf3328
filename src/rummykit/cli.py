"""The ``rummykit`` command line."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable
from typing import Annotated, Any

import typer

from rummykit import serve_options as so

app = typer.Typer(
    help="rummykit: rules-exact rummy. Play in the terminal, run bots, study the games.",
    no_args_is_help=True,
    add_completion=False,
)

RuleOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rule option as NAME=VALUE (repeatable)."),
]
Plugins = Annotated[
    list[str] | None,
    typer.Option(help="Import a module or .py file that registers games or bots (repeatable)."),
]


def _rule_changes(rules_type: type[Any], texts: Iterable[str]) -> dict[str, Any]:
    """``-o NAME=VALUE`` options as typed changes, each read by its declaration."""
    from rummykit.errors import InvalidOptionError
    from rummykit.options import option_of

    changes: dict[str, Any] = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        try:
            if not sep:
                raise InvalidOptionError(f"write an option as NAME=VALUE, not {text!r}")
            declared = option_of(rules_type, name)
            changes[declared.name] = declared.parse(raw)
        except InvalidOptionError as error:
            raise typer.BadParameter(str(error), param_hint="--option") from None
    return changes


def _load_plugins(load: list[str] | None) -> None:
    """Import each ``--load`` module or file (it registers games or bots)."""
    from rummykit.sim.registry import load_plugin

    for target in load or ():
        try:
            load_plugin(target)
        except (ImportError, OSError, ValueError) as error:
            raise typer.BadParameter(
                f"cannot load {target!r}: {error}", param_hint="--load"
            ) from None


@app.command()
def play(
    variant: Annotated[
        str,
        typer.Argument(
            help="Which game or preset: gin, carousel, rami51, rami40, ... "
            "(`rummykit games` lists them all)."
        ),
    ] = "gin",
    bot: Annotated[
        str,
        typer.Option(
            help="Your opponent(s): any bot registered for the game (random, heuristic, "
            "easy, medium, hard, expert, or a plugin's from --load)."
        ),
    ] = "heuristic",
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible deal.")] = None,
    players: Annotated[
        int | None,
        typer.Option(help="Players, you included (Rami 2-6, default 4; Carousel 2-5, default 3)."),
    ] = None,
    knock_limit: Annotated[
        int | None, typer.Option(help="Gin: most deadwood to knock (10); Carousel: 5.")
    ] = None,
    target: Annotated[
        int | None, typer.Option(help="Points that end the game (Gin 100, Carousel 150).")
    ] = None,
    big_gin_bonus: Annotated[
        int | None, typer.Option(help="Gin: big gin bonus; 0 disables (31).")
    ] = None,
    ace_high: Annotated[
        bool, typer.Option(help="Gin: allow Q-K-A runs (not the reference rule).")
    ] = False,
    option: RuleOptions = None,
    load: Plugins = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help="The language to play in: en or hi (default: RUMMYKIT_LANG, else the locale)."
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots."""

    from rummykit.i18n import choose_language

    try:
        language = choose_language(lang)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--lang") from None
    _load_plugins(load)
    from rummykit.catalog import find_variant
    from rummykit.errors import UnknownVariantError
    from rummykit.terminal import TerminalSession, card_style

    try:
        game_type, preset = find_variant(variant)
    except UnknownVariantError as error:
        raise typer.BadParameter(str(error), param_hint="VARIANT") from None
    seats = game_type.default_players if players is None else players
    try:
        game_type.check_players(seats)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--players") from None
    flags = {
        "knock_limit": knock_limit,
        "target": target,
        "big_gin_bonus": big_gin_bonus,
        "ace_high_runs": True if ace_high else None,
    }
    given = {name: value for name, value in flags.items() if value is not None}
    base = game_type.preset(preset) if preset is not None else game_type.default_rules()
    rules = _rules(game_type.rules_type, base, given, option or [])
    others = range(1, seats)
    bots = _registered_bots(variant, bot, seats=others, seed=seed, rules=rules, players=seats)
    game: Any = game_type.new_game(rules, players=seats, seed=seed)
    screen = game_type.terminal_screen(
        game, card_text=card_style(), name=preset or variant, language=language
    )
    session_bots = dict(zip(others, bots, strict=True))
    TerminalSession(game, screen, session_bots, game_name=game_type.name, language=language).run()


def _rules(rules_type: type[Any], base: Any, flags: dict[str, Any], options: list[str]) -> Any:
    """``base`` rules with the flags, then the ``-o`` options, applied and checked."""
    from rummykit.options import options_of

    known = {declared.name for declared in options_of(rules_type)}
    for name in flags:
        if name not in known:
            flag = "--ace-high" if name == "ace_high_runs" else "--" + name.replace("_", "-")
            raise typer.BadParameter(f"{flag} is not an option of this game", param_hint=flag)
    changes = {**flags, **_rule_changes(rules_type, options)}
    try:
        return dataclasses.replace(base, **changes)
    except (ValueError, TypeError) as error:
        raise typer.BadParameter(str(error)) from None


def _registered_bots(
    variant: str,
    name: str,
    *,
    seats: Iterable[int],
    seed: int | None,
    rules: Any,
    players: int,
) -> list[Any]:
    """One registered bot per seat; a bad name is a usage error listing the choices."""
    from rummykit.sim.registry import UnknownBotError, make_bot

    # Unseeded games still need seeds for the registry's factories: draw them securely.
    base = secrets.randbits(31) if seed is None else seed
    try:
        return [
            make_bot(
                variant,
                name,
                seed=base if seat == 1 else base * 10 + seat,
                rules=rules,
                players=players,
            )
            for seat in seats
        ]
    except UnknownBotError as error:
        raise typer.BadParameter(str(error), param_hint="--bot") from None


@app.command()
@so.with_limit_options
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL: sqlite:///rummykit.db (default) or "
            "postgresql+psycopg://user@host/db. Also read from RUMMYKIT_DATABASE_URL.",
        ),
    ] = None,
    seat_timeout: Annotated[
        float, typer.Option(help="Seconds a disconnected player's seat is held.", min=0)
    ] = 120.0,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before moving.", min=0)
    ] = 0.6,
    max_message_bytes: Annotated[
        int,
        typer.Option(help="Largest websocket message, and HTTP request body, accepted.", min=1),
    ] = 8192,
    rate_limit: Annotated[
        float, typer.Option(help="Messages a second allowed per connection (bursts of 2x).")
    ] = 20.0,
    allow_seed: Annotated[
        bool, typer.Option(help="Accept chosen seeds when creating tables (testing only).")
    ] = False,
    ws_compression: Annotated[
        bool, typer.Option(help="Compress websocket messages (permessage-deflate).")
    ] = True,
    sqlite_synchronous: Annotated[
        str,
        typer.Option(
            help="SQLite durability: normal survives a killed server process; full also "
            "an operating-system crash or power cut (an fsync per group commit).",
        ),
    ] = "normal",
    log_level: Annotated[so.LogLevel, typer.Option(help="uvicorn log level.")] = so.LogLevel.info,
    load: Annotated[
        list[str] | None,
        typer.Option(
            help="Import a module or .py file that registers bots (repeatable); "
            "the lobby offers them."
        ),
    ] = None,
    public_url: so.PublicUrl = None,
    forwarded_allow_ips: so.ForwardedAllowIps = None,
    *,
    limits: so.ServerLimits,  # one option per limit here (so.with_limit_options)
    replay_cache_mb: so.ReplayCacheMb = 64.0,
    redis_url: so.RedisUrl = None,
    lease_seconds: so.LeaseSeconds = 5.0,
) -> None:
    """Host tables: the lobby, the websocket protocol and the browser table."""
    import os

    _load_plugins(load)

    try:
        import uvicorn

        from rummykit.server import ServerConfig, create_app
        from rummykit.server.connection_guard import guarded_http_protocol
    except ImportError as error:
        typer.echo(
            f"the server needs the 'server' extra: pip install 'rummykit[server]' ({error})",
            err=True,
        )
        raise typer.Exit(2) from None
    url = database_url or os.environ.get("RUMMYKIT_DATABASE_URL") or "sqlite:///rummykit.db"
    if sqlite_synchronous.upper() not in ("NORMAL", "FULL"):
        typer.echo("--sqlite-synchronous is normal or full", err=True)
        raise typer.Exit(2)
    if redis_url and not url.startswith("postgresql"):
        typer.echo("a cluster (--redis-url) needs a PostgreSQL --database-url", err=True)
        raise typer.Exit(2)
    if rate_limit <= 0:
        typer.echo("--rate-limit must be positive", err=True)
        raise typer.Exit(2)
    if lease_seconds <= 0:
        typer.echo("--lease-seconds must be positive", err=True)
        raise typer.Exit(2)
    config = ServerConfig(
        database_url=url,
        seat_timeout=seat_timeout,
        bot_delay=bot_delay,
        max_message_bytes=max_message_bytes,
        rate_per_second=rate_limit,
        rate_burst=max(1, int(rate_limit * 2)),
        allow_seed=allow_seed,
        freeze_gc=True,
        sqlite_synchronous=sqlite_synchronous.upper(),
        public_url=public_url or None,
        replay_cache_bytes=int(replay_cache_mb * 1024 * 1024),
        redis_url=redis_url or None,
        lease_seconds=lease_seconds,
        **dataclasses.asdict(limits),
    )
    mode = " (cluster node)" if redis_url else ""
    typer.echo(
        f"rummykit table server{mode} on http://{host}:{port}/ (database {url.split('@')[-1]})"
    )
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level=log_level.value,
        ws_max_size=max(65536, max_message_bytes * 4),
        ws_per_message_deflate=ws_compression,
        access_log=log_level is so.LogLevel.debug,
        http=guarded_http_protocol(limits.header_timeout),
        timeout_keep_alive=max(1, round(limits.keep_alive_timeout)),
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )


@app.command()
def tournament(
    variant: Annotated[
        str, typer.Argument(help="gin, carousel, rami, or a preset: rami40, rami51-house, ...")
    ],
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bot names, one per seat (fewer repeat in order). "
            "Default: the two strongest registered bots."
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="Deals; each is played once per seat rotation.")] = 100,
    seed: Annotated[int, typer.Option(help="The results depend on this seed only.")] = 0,
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (default: every core).")
    ] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray.")] = "local",
    address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to join (auto, ray://host:10001); default a local Ray."),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Seats at the table (default: the number of bots).")
    ] = None,
    json_path: Annotated[
        str | None, typer.Option("--json", help="Write the results and every game as JSON.")
    ] = None,
    csv_path: Annotated[
        str | None, typer.Option("--csv", help="Write the results table as CSV.")
    ] = None,
    option: RuleOptions = None,
    load: Plugins = None,
    progress: Annotated[
        bool, typer.Option(help="Show a progress bar with an ETA on standard error.")
    ] = True,
) -> None:
    """Play bots against each other on paired deals and print the results table."""
    from rummykit.catalog import find_variant
    from rummykit.errors import UnknownBotError, UnknownVariantError
    from rummykit.sim.tournament import TournamentError, run_tournament

    _load_plugins(load)
    try:
        driver, _ = find_variant(variant)
    except UnknownVariantError as error:
        raise typer.BadParameter(str(error), param_hint="VARIANT") from None
    options: dict[str, Any] = {}
    for text in option or ():
        try:
            name, value = driver.parse_option(text)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--option") from None
        options[name] = value
    if games < 1:
        raise typer.BadParameter(f"must be at least 1, not {games}", param_hint="--games")
    if workers is not None and workers < 1:
        raise typer.BadParameter(f"must be at least 1, not {workers}", param_hint="--workers")
    if backend not in ("local", "ray"):
        raise typer.BadParameter(f"local or ray, not {backend!r}", param_hint="--backend")
    names = None if bots is None else [name.strip() for name in bots.split(",") if name.strip()]
    try:
        result = run_tournament(
            variant,
            names,
            games=games,
            seed=seed,
            workers=workers,
            backend="ray" if backend == "ray" else "local",
            address=address,
            players=players,
            rules=options,
            progress=progress,
        )
    except UnknownBotError as error:
        raise typer.BadParameter(str(error), param_hint="--bots") from None
    except TournamentError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    typer.echo(result.table())
    if json_path is not None:
        result.write_json(json_path)
        typer.echo(f"wrote {json_path}")
    if csv_path is not None:
        result.write_csv(csv_path)
        typer.echo(f"wrote {csv_path}")


@app.command()
def games(
    load: Plugins = None,
) -> None:
    """List the games of the catalog: names, players, presets and bots."""
    from rummykit.catalog import variants

    _load_plugins(load)
    for variant in variants():
        seats = (
            str(variant.min_players)
            if variant.min_players == variant.max_players
            else f"{variant.min_players}-{variant.max_players}"
        )
        typer.echo(f"{variant.name:<12} {variant.title} ({seats} players)")
        if variant.preset_names:
            typer.echo(f"{'':<12} presets: {', '.join(variant.preset_names)}")
        typer.echo(f"{'':<12} bots: {', '.join(variant.bot_levels())}")


@app.command()
def rules(
    game: Annotated[
        str | None,
        typer.Argument(
            help="gin, rami or carousel (a preset such as rami40 opens its game).",
            metavar="GAME",
        ),
    ] = None,
    section: Annotated[
        str | None,
        typer.Argument(
            help="One rule (gin-3.2 or 3.2) or a whole section (3); default all.",
            metavar="SECTION",
        ),
    ] = None,
    lang: Annotated[str, typer.Option(help="The language of the pages: en or hi.")] = "en",
) -> None:
    """Print the rules of a game, or one section or rule of them; alone, list the games."""
    from rummykit.catalog import get_variant
    from rummykit.errors import UnknownRuleError, UnknownRulesPageError
    from rummykit.rules import games as games_with_rules
    from rummykit.rules import languages
    from rummykit.terminal.rules_view import rules_text

    if lang not in languages():
        raise typer.BadParameter(f"the pages are in {', '.join(languages())}", param_hint="--lang")
    if game is None:
        for name in games_with_rules():
            variant = get_variant(name)
            presets = (
                f" (presets: {', '.join(variant.preset_names)})" if variant.preset_names else ""
            )
            typer.echo(f"{name:<12} {variant.title}{presets}")
        typer.echo("\nrummykit rules GAME prints a game's rules; rummykit rules gin 3.2 one rule.")
        return
    try:
        text = rules_text(game, section, language=lang)
    except UnknownRulesPageError as error:
        raise typer.BadParameter(str(error), param_hint="GAME") from None
    except UnknownRuleError as error:
        raise typer.BadParameter(str(error), param_hint="SECTION") from None
    # rules_text already chose plain or styled text for standard output.
    typer.echo(text, nl=not text.endswith("\n"), color=True)


@app.command()
def version() -> None:
    """Print the rummykit version."""
    from rummykit import __version__

    typer.echo(__version__)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
