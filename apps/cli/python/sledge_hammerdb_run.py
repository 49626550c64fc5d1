"""Run a HammerDB Python script as ``hammerdbcli py auto script.py`` runs it.

Started by ``sledge hammerdb`` (apps/cli/src/hammerdb/python.ts) with this
directory on PYTHONPATH:

    python3 -u sledge_hammerdb_run.py script.py   # a script file
    python3 -u sledge_hammerdb_run.py -           # the script from stdin
    python3 -u sledge_hammerdb_run.py             # a hammerdb>>> prompt

The script runs in one namespace holding what HammerDB's Python CLI gives it:
``sys``, ``tclpy`` and every verb (``from hammerdb import *``). An exception it
does not catch prints Python's traceback (without this runner's frame) and
ends with exit code 1; ``exit(N)``/``sys.exit(N)``/``quit()`` end with N.
"""

import builtins
import os
import sys
import traceback

import hammerdb
import tclpy

HERE = os.path.dirname(os.path.abspath(__file__))


def namespace(filename):
    g = {"__name__": "__main__", "__builtins__": builtins, "sys": sys, "tclpy": tclpy}
    if filename is not None:
        g["__file__"] = filename
    for name in hammerdb.__all__:
        g[name] = getattr(hammerdb, name)
    return g


def run(text, filename):
    g = namespace(filename)
    try:
        exec(compile(text, filename, "exec"), g)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("KeyboardInterrupt\n")
        return 130
    except BaseException as e:  # noqa: BLE001 - any uncaught exception ends the script, as in python3 script.py
        report(e)
        return 1
    return 0


def report(e):
    """Python's traceback, from the user's script on: without this runner's frame,
    and for a Tcl error without the frames of Sledge's hammerdb/tclpy modules."""
    tb = e.__traceback__
    te = traceback.TracebackException(type(e), e, tb.tb_next if tb is not None else None)
    if isinstance(e, tclpy.TclException):
        frames = [f for f in te.stack if os.path.dirname(os.path.abspath(f.filename)) != HERE]
        te.stack = traceback.StackSummary.from_list(frames)
    sys.stderr.write("".join(te.format()))


def interact():
    import code

    sys.ps1 = "hammerdb>>>"
    sys.ps2 = "..."
    code.interact(
        banner='Sledge HammerDB CLI (Python): HammerDB verbs as functions, "help()" for the verbs, "quit()" to leave',
        local=namespace(None),
        exitmsg="",
    )
    return 0


def main(argv):
    if len(argv) > 1:
        sys.stderr.write("usage: sledge_hammerdb_run.py [script.py | -]\n")
        return 2
    if not argv:
        return interact()
    if argv[0] == "-":
        return run(sys.stdin.read(), "<stdin>")
    with open(argv[0], encoding="utf-8") as f:
        text = f.read()
    return run(text, argv[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
