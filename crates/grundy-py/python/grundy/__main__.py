"""``python -m grundy``: the library's answers as JSON, for scripts without the CLI.

    python -m grundy value sub:1,2,3 3 4 5 + nim 7 [--misere]
    python -m grundy seq 0.07 --to 100 [--from 0]
    python -m grundy period 0.137
    python -m grundy table knight:8
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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
