"""Files reused from the last build one by one, by a key of what each is made from (KeyedFiles).

An output that writes many files from parts of the corpus (the site: a page per article) gives each
file a key: the sha256 of the template (or other maker) and of every value it is made from, encoded
canonically (JSON, keys sorted). When the last build recorded the same key for the same file, and the
file is still the one it recorded (its sha256 in the build's marker), the file is copied from there
instead of made again: one changed article re-renders its page and the pages that show what changed
(the contents, a page citing it, its neighbours' links), not the edition's hundred pages.

The key is complete by construction: it is taken from the values the maker is given, never from a
list of what might matter. A value the encoder does not know is an error (TypeError), not a value
left out: a page made from something the key cannot see could come back stale. The keys do not hold
the code or the build's settings: the last build's keys are offered only when both are the same
(publish/run.py, Build.keys), and never to a forced build.

Reads: job.previous (the last build's keys of this output and its files). Writes: the files it copies,
and `.lawbook-keys/<output>.json` in the build (every file's key, for the next build).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any, Callable

from .job import Job

KEYS_DIR = ".lawbook-keys"


@dataclasses.dataclass(frozen=True)
class Later:
    """A value made only when its file is made (a layout by Graphviz, say), keyed by what it is made from:
    `key` (JSON-encodable) stands for it in the file's key, `make()` gives it."""
    key: Any
    make: Callable[[], Any]


def _encodable(value: Any) -> Any:
    """json.dumps's `default`: what a value of the pipeline's own types contributes to a key."""
    if isinstance(value, Later):
        return {"later": value.key}
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    key_of = getattr(value, "key_of", None)  # a type that says what of it a page can show (site/model.py)
    if key_of is not None:
        return key_of()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    raise TypeError(f"a file's key cannot hold a {type(value).__name__}: give it a key_of()")


def key_of(maker: str, values: dict[str, Any]) -> str:
    """The key of a file made by `maker` (a template's name) from `values`."""
    data = json.dumps([maker, values], default=_encodable, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def resolved(values: dict[str, Any]) -> dict[str, Any]:
    """`values` with each Later made."""
    return {name: value.make() if isinstance(value, Later) else value for name, value in values.items()}


class KeyedFiles:
    """One output's files and their keys: reuse() copies a file whose key is the last build's, save()
    records every key for the next build. `folder` is the output's folder below the build ("html")."""

    def __init__(self, job: Job, output: str, folder: str) -> None:
        self.job, self.output, self.folder = job, output, folder
        self.before: dict[str, str] = job.previous.keys(output) if job.previous.available else {}
        self.now: dict[str, str] = {}

    def _rel(self, path: str) -> str:
        return f"{self.folder}/{path}" if self.folder else path

    def reuse(self, path: str, key: str) -> bool:
        """Record `key` for `path` (below the folder); copy the file from the last build when it recorded
        the same key and still holds that file. True if copied: the caller then does not make it."""
        self.now[path] = key
        return self.before.get(path) == key and self.job.previous.copy_files([self._rel(path)])

    def known(self, paths: list[str]) -> bool:
        """Whether the last build recorded a key for each of `paths`: only then may the output copy them by
        other means (an unchanged edition's folder, whole) and carry() their keys on."""
        return all(path in self.before for path in paths)

    def carry(self, paths: list[str]) -> None:
        """Files the output copied from the last build by other means (see known): their keys go on as they were."""
        for path in paths:
            self.now[path] = self.before[path]

    def save(self) -> None:
        """Write every key recorded in this build to `.lawbook-keys/<output>.json` in the build folder."""
        folder = Path(self.job.tmp) / KEYS_DIR
        folder.mkdir(exist_ok=True)
        (folder / f"{self.output}.json").write_text(json.dumps(self.now, indent=0, sort_keys=True) + "\n",
                                                    encoding="utf-8")


def read_keys(build_dir: Path, output: str, sha256: str) -> dict[str, str]:
    """The keys an earlier build recorded for `output`, when their file is the one it recorded (`sha256`);
    {} when it recorded none, or they cannot be read or are not what it wrote."""
    try:
        raw = (Path(build_dir) / KEYS_DIR / f"{output}.json").read_bytes()
        if hashlib.sha256(raw).hexdigest() != sha256:
            return {}
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        return {}
    return data
