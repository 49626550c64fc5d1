"""HammerDB's CLI verbs as Python functions, for ``sledge hammerdb script.py``.

HammerDB's ``hammerdbcli py`` runs a script with every CLI verb defined as a
function (``from hammerdb import *``): ``dbset('db','pg')``,
``diset('tpcc','pg_count_ware',4)``, ``vuset('vu',2)``, ``jobid = vurun()``,
``jobs(jobid,'result')``, ``print('dict')``, ``quit()``. As in HammerDB, a call
is the Tcl command made of the verb and its arguments joined by spaces
(non-strings through ``str``), evaluated in the session's Tcl interpreter
(``tclpy.eval``): Sledge's, where the same verb implementations serve Tcl
scripts, so a verb prints exactly what it prints there. A function returns
the command's result when it has one (``vurun()`` -> ``'Benchmark Run
jobid=<id>'``, ``jobs('joblist')``), else None; ``vucomplete()`` returns a bool.
``print`` is HammerDB's ``print`` verb when its first argument is one of the
verb's options ('db', 'bm', 'dict', ...), Python's print otherwise.
"""

import builtins
import sys

import tclpy

# The verbs of HammerDB's CLI help index, and the helpers its Python mode adds.
_VERBS = (
    "buildschema", "checkschema", "deleteschema", "clearscript", "savescript",
    "customscript", "custommonitor", "datagenrun", "dbset", "dgset", "diset",
    "giset", "distributescript", "jobs", "job", "librarycheck", "loadscript",
    "metset", "metstart", "metstatus", "metstop", "steprun", "switchmode",
    "tcset", "tcstart", "tcstatus", "tcstop", "vucreate", "vudestroy", "vurun",
    "vuset", "vustatus", "wsport", "wsstart", "wsstatus", "wsstop", "pipe",
    "pipes", "ci", "cifix", "cilisten", "cipush", "cireset", "ciset",
    "cistatus", "cistop", "citmp", "runtimer", "waittocomplete",
)

# The options of the print verb that HammerDB's Python print sends to the verb.
_PRINT_OPTIONS = ("db", "bm", "dict", "generic", "script", "vuconf", "vucreated", "vustatus", "datagen", "tcconf")


def _word(arg):
    return arg if isinstance(arg, str) else str(arg)


def eval_hammerdb_command(name, *args):
    """Run verb `name` with `args` (joined by spaces, as HammerDB does); its result or None."""
    result = tclpy.eval(" ".join([name] + [_word(a) for a in args]))
    return result if result else None


def _verb(name):
    def call(*args):
        return eval_hammerdb_command(name, *args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = "HammerDB's %s verb: %s(arg, ...) runs '%s arg ...'." % (name, name, name)
    return call


for _name in _VERBS:
    globals()[_name] = _verb(_name)


def vucomplete():
    """True when the virtual users have completed (HammerDB's vucomplete verb)."""
    return tclpy.eval("vucomplete") in ("1", "true")


def print(*args, **kwargs):  # noqa: A001 - HammerDB's print verb shadows Python's
    """HammerDB's print verb for print('db'|'bm'|'dict'|...); Python's print for anything else."""
    if args and not kwargs and isinstance(args[0], str) and args[0] in _PRINT_OPTIONS:
        return eval_hammerdb_command("print", *args)
    return builtins.print(*args, **kwargs)


def quit(*args):  # noqa: A001 - HammerDB's quit verb
    """HammerDB's quit: prints 'Shutting down HammerDB CLI' and ends the script (exit code 0)."""
    return eval_hammerdb_command("quit", *args)


def help(*args):  # noqa: A001 - HammerDB's help verb
    """The CLI's verbs."""
    return eval_hammerdb_command("help", *args)


def source(filename):
    """Run another Python script in the caller's namespace (HammerDB's source('file.py'))."""
    caller = sys._getframe(1).f_globals
    try:
        with open(filename, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        builtins.print("The file %s does not exist" % filename)
        return None
    exec(compile(text, filename, "exec"), caller)
    return None


def tclversion():
    """Print the version of the Tcl interpreter the verbs run in."""
    builtins.print("Python interface to Tcl version " + tclpy.eval("info patchlevel"))


def runscript(flag):
    """HammerDB's driver switches its interactive output mode with it; nothing to do in Sledge."""
    return None


__all__ = list(_VERBS) + [
    "eval_hammerdb_command", "vucomplete", "print", "quit", "help", "source", "tclversion", "runscript", "tclpy",
]
