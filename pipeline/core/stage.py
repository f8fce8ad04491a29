"""A stage and the chain of stages: what each step of the build reads, writes and where it runs.

Every corpus, reading and output module declares its steps as `Stage`s in a module-level `STAGES`
list (as a reader declares its `Format`); the build puts them in order by name with a `Chain`
(markdown-it-py's Ruler: push, before, after, disable). Nothing in the build goes by a function's
`__name__`: whether a stage runs without the PDF, beside others or in a forked child is in its
declaration, and tests/test_stages.py holds every stage to what it declares it reads and writes.

A stage is a function of one context (the corpus stages' CorpusContext, an output stage's Job).
A stage that starts a process returns its `Process`, and a later stage is declared to wait for it
(`waits`); the runner owns the process from then on, waits for it there (or, when no stage of the
chain waits for it, after the last stage), and stops it when the build fails. What other stages
return (the files they wrote, for callers outside a build) is not kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Protocol, runtime_checkable

# Where a stage runs (publish/run.py): in order in the build's process; beside the other stages of
# its run of SIDE and FORK stages (it writes only files of its own from the finished corpus); or in a
# child process forked for it at the start of that run, while the build's process does the SIDE ones.
MAIN, SIDE, FORK = "main", "side", "fork"
LANES = (MAIN, SIDE, FORK)


@runtime_checkable
class Process(Protocol):
    """A process a stage started and the runner owns: wait() for it (raising its failure), kill() it."""

    def wait(self) -> object: ...

    def kill(self) -> object: ...


@dataclass(frozen=True)
class Stage:
    """One step of the build, declared.

    reads and writes name the fields of the context the stage touches (an output's Job: `corpus`,
    `log`, `tmp`, `made.comparisons` …); files names what it writes below the output folder, for the
    docs. unless names options (core/options.py) that leave the stage out (`no_pdf`). waits names the
    stage whose Process this one waits for: such a stage has no function, the runner does the waiting.
    """
    name: str
    run: Callable[[Any], object] | None
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    lane: str = MAIN
    unless: tuple[str, ...] = ()
    waits: str | None = None

    def __post_init__(self) -> None:
        if self.lane not in LANES:
            raise ValueError(f"stage {self.name}: lane {self.lane!r} is none of {', '.join(LANES)}")
        if (self.run is None) == (self.waits is None):
            raise ValueError(f"stage {self.name}: give a function or the stage it waits for, not both or neither")

    def wanted(self, options: object) -> bool:
        """Whether the options ask for this stage: none of the options in `unless` is set."""
        return not any(getattr(options, name) for name in self.unless)


class Chain:
    """Stages in order, each once by name, some of them disabled. A Chain is never changed in place:
    push, before, after, move, disable and enable return a new one, so the build's chain (a module
    global) can be extended by a test or a tool without touching anyone else's."""

    def __init__(self, stages: Iterable[Stage] = (), disabled: Iterable[str] = ()) -> None:
        self._stages: tuple[Stage, ...] = tuple(stages)
        names = [s.name for s in self._stages]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"stages named twice in a chain: {', '.join(twice)}")
        self._disabled = frozenset(disabled)
        self._index(*self._disabled)

    def _index(self, *names: str) -> list[int]:
        known = [s.name for s in self._stages]
        missing = [n for n in names if n not in known]
        if missing:
            raise KeyError(f"no stage named {', '.join(missing)} in the chain ({', '.join(known)})")
        return [known.index(n) for n in names]

    def __iter__(self) -> Iterator[Stage]:
        """The enabled stages, in order."""
        return (s for s in self._stages if s.name not in self._disabled)

    def __getitem__(self, name: str) -> Stage:
        return self._stages[self._index(name)[0]]

    def __contains__(self, name: object) -> bool:
        return any(s.name == name for s in self._stages)

    def names(self) -> list[str]:
        """The enabled stages' names, in order."""
        return [s.name for s in self]

    def _with(self, stages: Iterable[Stage], disabled: Iterable[str] | None = None) -> Chain:
        return Chain(stages, self._disabled if disabled is None else disabled)

    def push(self, *stages: Stage) -> Chain:
        """The chain with `stages` added at its end."""
        return self._with(self._stages + stages)

    def before(self, name: str, *stages: Stage) -> Chain:
        """The chain with `stages` right before the stage `name`."""
        at = self._index(name)[0]
        return self._with(self._stages[:at] + stages + self._stages[at:])

    def after(self, name: str, *stages: Stage) -> Chain:
        """The chain with `stages` right after the stage `name`."""
        at = self._index(name)[0] + 1
        return self._with(self._stages[:at] + stages + self._stages[at:])

    def move(self, name: str, *, before: str | None = None, after: str | None = None) -> Chain:
        """The chain with the stage `name` taken out and put before or after another."""
        if (before is None) == (after is None):
            raise TypeError("move: say before or after, one of them")
        stage = self[name]
        rest = Chain((s for s in self._stages if s.name != name), self._disabled - {name})
        moved = rest.before(before, stage) if before is not None else rest.after(str(after), stage)
        return moved._with(moved._stages, self._disabled)

    def replace(self, stage: Stage) -> Chain:
        """The chain with `stage` in place of the stage of the same name."""
        at = self._index(stage.name)[0]
        return self._with(self._stages[:at] + (stage,) + self._stages[at + 1:])

    def disable(self, *names: str) -> Chain:
        """The chain with the stages `names` left out when it runs (still there to place others by)."""
        self._index(*names)
        return self._with(self._stages, self._disabled | set(names))

    def enable(self, *names: str) -> Chain:
        self._index(*names)
        return self._with(self._stages, self._disabled - set(names))

    def only(self, *names: str) -> Chain:
        """The chain with every stage but `names` disabled (their order stays the chain's)."""
        self._index(*names)
        return self._with(self._stages, {s.name for s in self._stages} - set(names))

    def wanted(self, options: object) -> list[Stage]:
        """The enabled stages the options ask for, in order (`build --no-pdf`: none with unless no_pdf).
        Raises ValueError when a stage waits for one that is not before it (while a chain is being put
        together the order may be anything; when it runs, it must be this)."""
        names = [s.name for s in self._stages]
        for at, stage in enumerate(self._stages):
            if stage.waits is not None and stage.waits not in names[:at]:
                raise ValueError(f"stage {stage.name} waits for {stage.waits}, which is not before it")
        return [s for s in self if s.wanted(options)]

    def __repr__(self) -> str:
        return f"Chain({', '.join(self.names())})"


def table(stages: Iterable[Stage]) -> str:
    """The stages as a Markdown table: name, lane, what each reads and writes (docs/architecture.md
    holds this table, and tests/test_stages.py that it is the one the declarations give)."""
    def cell(values: Iterable[str]) -> str:
        return ", ".join(f"`{v}`" for v in values) or "—"

    rows = ["| stage | lane | reads | writes | files | left out with |", "|---|---|---|---|---|---|"]
    for s in stages:
        reads = cell(s.reads) if s.waits is None else f"the process of `{s.waits}`"
        rows.append(f"| `{s.name}` | {s.lane} | {reads} | {cell(s.writes)} | {cell(s.files)} | {cell(s.unless)} |")
    return "\n".join(rows)
