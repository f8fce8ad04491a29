"""Language profiles: every word and pattern that belongs to one language, in one place per language.

A profile is a folder here (nl/ for Dutch, en/ for English, fr/ for French): rules.py holds how the language writes the law
(citation keywords, relative words, note markers, repair word lists, gap texts), words.py the
words readers see in the outputs (HTML, PDF, Markdown, diff), keyed by their English. The
manifest's top-level `language = "nl"` (the default) picks the profile of a book.

Adding a language is one new folder beside nl/ and one line in _profiles().
"""
from collections.abc import Callable
from typing import TypeVar

from ..errors import LawbookError
from .profile import LanguageRules, Profile

__all__ = ["DEFAULT", "LanguageRules", "Profile", "codes", "compiled", "per_profile", "profile"]

T = TypeVar("T")


def _profiles() -> dict[str, Profile]:
    from . import en, fr, nl
    return {"en": en.PROFILE, "fr": fr.PROFILE, "nl": nl.PROFILE}


# The language of a manifest that names none (reading/manifest.py); no stage falls back to it.
DEFAULT = "nl"
# The language lawbook's own messages (the report's, the terminal's) are written in: the WBF original's.
MESSAGES = "en"


def profile(code: str, where: str | None = None, line: int | None = None) -> Profile:
    """The profile of language `code`; a LawbookError naming `where` (the manifest) and its `line` for an
    unknown one."""
    profiles = _profiles()
    if code not in profiles:
        raise LawbookError(f"unknown language {code!r}", file=where, line=line,
                           fix=f"set language to one of {', '.join(sorted(profiles))} (or leave it out for "
                               f"{DEFAULT})")
    return profiles[code]


def codes() -> list[str]:
    return sorted(_profiles())


def per_profile(build: Callable[[Profile], T]) -> Callable[[Profile], T]:
    """A decorator: `build(profile)` makes something of a profile (patterns, a word list); the decorated
    function builds it once per profile. The one cache of what is made of a profile.

    Keyed by the language code, and built again when another profile of that code comes (a test's
    made-up profile), so a profile is never read with another's patterns."""
    made: dict[str, tuple[Profile, T]] = {}

    def of_profile(of: Profile) -> T:
        hit = made.get(of.code)
        if hit is None or hit[0] is not of:
            hit = made[of.code] = (of, build(of))
        return hit[1]

    of_profile.__doc__ = build.__doc__
    return of_profile


def compiled(build: Callable[[LanguageRules], T]) -> Callable[[Profile], T]:
    """A decorator: `build(rules)` makes a module's patterns from a profile's rules, once per profile
    (per_profile)."""
    def from_rules(of: Profile) -> T:
        return build(of.rules)

    from_rules.__doc__ = build.__doc__
    return per_profile(from_rules)
