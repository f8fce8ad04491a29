"""One error type for everything a user can get wrong.

A LawbookError names the file, the line (when known), what is wrong and what to
do; the CLI prints it as one message and exits with its status, never a traceback.
"""
import re
from os import PathLike
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the report is not loaded where only an error is wanted (the start-up of `lawbook build`)
    from .report import Entry


# What a terminal would act on instead of showing: C0 controls (a line break inside a name too), DEL, C1,
# the line and paragraph separators and the bidirectional controls. A book's file names and texts come
# from whoever made it: "\x1b]…" in a source name must not retitle or clear the reader's terminal.
TERMINAL_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def shown_safely(line: str) -> str:
    """`line` with every TERMINAL_CONTROLS character written as its escape (\\x1b, \\u202e)."""
    return TERMINAL_CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                                 else f"\\u{ord(m.group()):04x}", line)


class LawbookError(Exception):
    """Bad input or bad usage. status 2: unreadable input or usage; 1: the build found errors."""

    def __init__(self, message: str, file: str | PathLike[str] | None = None, line: int | None = None,
                 fix: str | None = None, status: int = 2, paged: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.fix = fix
        self.status = status
        self.paged = paged  # the file is a PDF: its line numbers are shown as page and line (report.location)

    def __str__(self) -> str:
        from .report import location  # here, not at the top: `lawbook build` with nothing to do loads no report

        # Each part on one line of the terminal, whatever it quotes (a value of a hostile corpus.json, a name):
        # its control characters as escapes; the line break before the fix is the message's own.
        where = ""
        if self.file:
            where = f"{location(str(self.file), self.line, self.paged)}: "
        text = shown_safely(f"{where}{self.message}")
        if self.fix:
            text += f"\n  fix: {shown_safely(self.fix)}"
        return text


class BuildFailed(LawbookError):
    """The build ran but found errors (conflicts, unaccounted lines, notes without text, …): status 1.

    `errors` are the report entries of kind error or conflict, each with file, line and
    message; the whole report of the failed build is at `report`. The previous build
    was left as it was.
    """

    def __init__(self, errors: "list[Entry]", report: str, target: str | PathLike[str],
                 paged: frozenset[str] = frozenset()) -> None:
        count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
        super().__init__(f"the build found {count}; {target}/ was left as it was", file=str(report),
                         fix=f"correct the sources at the lines above; the full report is {report}", status=1)
        self.errors = errors
        self.report = report
        self.paged_files = paged  # the sources read from a PDF's pages (BuildLog.paged)

    def where(self, entry: "Entry") -> str:
        """The location of one of `errors`, as the report shows it."""
        from .report import location

        return location(entry.file or "", entry.line, entry.file in self.paged_files)


# The errors of a write that the file system refused for want of room: each names the file being written.


def write_failure(err: int | None, path: str | PathLike[str]) -> LawbookError | None:
    """The LawbookError for a write that failed with errno `err` while `path` was written, when `err`
    says the file system has no room (disk full, quota, file-size limit); else None. The path is what an
    editor needs: which disk is full, or which file passed `ulimit -f`."""
    import errno

    if err == errno.ENOSPC or err == errno.EDQUOT:
        what = "no space left on the device" if err == errno.ENOSPC else "the disk quota is used up"
        return LawbookError(f"{what} while this file was written", file=str(path),
                            fix="free space on that disk (or build with --out on another disk), then build again; "
                                "the previous build was left as it was")
    if err == errno.EFBIG:
        return LawbookError("the file grew past the largest file this process may write (the file-size limit, "
                            "`ulimit -f`, or the file system's own) while it was written", file=str(path),
                            fix="raise the limit (`ulimit -f unlimited`) or build with --out on another file "
                                "system, then build again; the previous build was left as it was")
    return None
