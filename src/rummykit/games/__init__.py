"""The games rummykit hosts, each a package of its own: rules, engine, whole game,
solvers, bots and views (:mod:`rummykit.games.gin`, :mod:`rummykit.games.rami`,
:mod:`rummykit.games.carousel`). Games import the card and meld core, never the
platform (server, terminal, tournaments, research interfaces)."""
