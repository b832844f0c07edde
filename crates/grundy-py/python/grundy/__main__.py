"""``python -m grundy``: the library's answers as JSON, for scripts without the CLI.

    python -m grundy value sub:1,2,3 3 4 5 + nim 7 [--misere]
    python -m grundy seq 0.07 --to 100 [--from 0]
    python -m grundy period 0.137
    python -m grundy table knight:8
    python -m grundy census octal --digits 2 [--max N] [--out FILE] [--jobs J] [--dask ADDRESS | --ray ADDRESS]
    python -m grundy search cram 6x7 [--dask ADDRESS] [--facts FILE] [--depth D]
"""

import argparse
import json
import sys

import grundy


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grundy", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("value", help="values, winner and winning moves of a sum")
    v.add_argument("sum", nargs="+")
    v.add_argument("--misere", action="store_true")
    v.add_argument("--max-moves", type=int, default=grundy.DEFAULT_MAX_MOVES)
    s = sub.add_parser("seq", help="Grundy values of heaps FROM..=TO")
    s.add_argument("game")
    s.add_argument("--from", dest="start", type=int, default=0)
    s.add_argument("--to", dest="stop", type=int, required=True)
    p = sub.add_parser("period", help="the period of a heap game")
    p.add_argument("game")
    p.add_argument("--max", type=int, default=1 << 26)
    t = sub.add_parser("table", help="the board of values of a grid or bar game")
    t.add_argument("game")
    c = sub.add_parser("census", help="every game of a family, a row each (here, or on a Dask cluster)")
    c.add_argument("family", choices=["octal", "hex", "sub"])
    size = c.add_mutually_exclusive_group(required=True)
    size.add_argument("--digits", type=int, help="octal and hex: the most digits after the point")
    size.add_argument("--max-take", type=int, help="sub: every subset of 1..K")
    c.add_argument("--max", type=int, default=1 << 17, help="heaps to tabulate at most (default 131072)")
    c.add_argument("--out", help="keep the rows in FILE (.csv or .jsonl); the same command resumes it")
    c.add_argument("--jobs", type=int, help="local run: codes at once (default: one per core)")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS (tcp://host:8786)")
    where.add_argument("--ray", metavar="ADDRESS", help="run on the Ray cluster at ADDRESS")
    c.add_argument("--zero-seconds", action="store_true", help=argparse.SUPPRESS)
    f = sub.add_parser("search", help="the nimber of one big board (here, or on a Dask cluster)")
    f.add_argument("game", choices=["cram", "chomp"])
    f.add_argument("position", help="a board: 6x7, or rows of . and # joined by /")
    f.add_argument("--dask", metavar="ADDRESS", help="search on the Dask scheduler at ADDRESS (tcp://host:8786)")
    f.add_argument("--facts", metavar="FILE",
                   help="keep what the search learns in FILE; the same command resumes from it")
    f.add_argument("--depth", type=int, default=None,
                   help="with --dask: levels the driver splits into tasks (default 2)")
    f.add_argument("--tt-size", default="1G", help="the driver's table: bytes, or a number with K, M, G or T")
    args = parser.parse_args(argv)
    if args.command == "census":
        return _census(args)
    if args.command == "search":
        return _search(args)
    try:
        if args.command == "value":
            out = grundy.value(*args.sum, misere=args.misere, max_moves=args.max_moves).to_dict()
        elif args.command == "seq":
            values = grundy.seq(args.game, args.stop, start=args.start)
            out = {"from": args.start, "to": args.stop, "values": values.tolist()}
        elif args.command == "period":
            out = grundy.period(args.game, args.max).to_dict()
        else:
            out = {"table": grundy.table(args.game).tolist()}
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    print(json.dumps(out, default=str))
    return 0


def _census(args) -> int:
    from . import census

    size = args.digits if args.family in ("octal", "hex") else args.max_take
    if size is None:
        print("error: octal and hex censuses take --digits D, sub takes --max-take K", file=sys.stderr)
        return 2
    try:
        if args.dask:
            rows = census.run_dask(args.family, size, args.dask, max=args.max, out=args.out,
                                   zero_seconds=args.zero_seconds)
        elif args.ray:
            rows = census.run_ray(args.family, size, args.ray, max=args.max, out=args.out,
                                  zero_seconds=args.zero_seconds)
        else:
            rows = census.run(args.family, size, max=args.max, out=args.out, jobs=args.jobs,
                              zero_seconds=args.zero_seconds)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        kept = f"; every finished row is in {args.out}: run the same command to resume" if args.out else ""
        print(f"error: {e or 'interrupted'}{kept}", file=sys.stderr)
        return 130
    if args.out is None:
        sys.stdout.write(census.markdown(rows))
    proven = sum(1 for r in rows if r["proven"])
    unsolved = sum(1 for r in rows if not r["proven"] and r["same_as"] is None)
    games = "game" if unsolved == 1 else "games"
    print(f"{len(rows)} codes: {proven} proven, {unsolved} distinct {games} unsolved within {args.max} heaps"
          + (f"; written to {args.out}" if args.out else ""), file=sys.stderr)
    return 0


def _size(text: str) -> int:
    t = text.strip().upper().rstrip("BI")
    shift = {"K": 10, "M": 20, "G": 30, "T": 40}.get(t[-1:], 0)
    digits = t[:-1] if shift else t
    if not digits.isdigit() or int(digits) == 0:
        raise ValueError(f"{text} is not a memory size: write bytes, or a number with K, M, G or T (512M)")
    return int(digits) << shift


def _search(args) -> int:
    from . import search

    try:
        tt = _size(args.tt_size)
        if args.dask:
            depth = search.DEFAULT_DEPTH if args.depth is None else args.depth
            out = search.run_dask(args.game, args.position, args.dask, facts=args.facts,
                                  depth=depth, tt_size=tt)
        else:
            if args.depth is not None:
                raise ValueError("--depth splits a search into tasks for --dask; a search here needs none")
            out = search.run(args.game, args.position, facts=args.facts, tt_size=tt)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        kept = f"; what it learned is in {args.facts}: run the same command to resume" if args.facts else ""
        print(f"error: interrupted{kept}", file=sys.stderr)
        return 130
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
