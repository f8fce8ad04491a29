"""The law text of a page: its markup is templates/html/fragments.html (the macros inline, content,
child, label, renumbered, table, text_block and original_table); this module gives them and every page the
profile's words as _() (Words) and puts the macros the pages call among the environment's globals (install).

Reads: the piece and node views of model.py (through the templates). Writes nothing.
"""
from typing import Any

import jinja2
from markupsafe import Markup

from ...core.lang import Profile


class Words:
    """The templates' _(english, **values): what jinja2's i18n _() gives under autoescape (the
    profile's words as markup, % the escaped values, even with none, so %% is one %), looked up
    directly: the i18n extension's _() goes through two context calls each time (20,000 calls for a
    book of 93 articles)."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self._said: dict[tuple[object, ...], Markup] = {}

    def word(self, english: str, **values: object) -> Markup:
        # Kept by the words and the values when every value is a plain str or int (escaped the same
        # whenever equal): a page names the same articles again and again. Anything else is formatted anew.
        key = (english, *values.items()) if all(type(v) in (str, int) for v in values.values()) else None
        said = self._said.get(key) if key is not None else None
        if said is None:
            said = Markup(self.profile.word(english)) % values
            if key is not None:
                if len(self._said) >= 1 << 16:  # one environment serves every build of a process
                    self._said.clear()
                self._said[key] = said
        return said


def install(env: jinja2.Environment, profile: Profile) -> None:
    """Give the templates of `env` the profile's words as _() and the law text's macros (inline,
    content, renumbered, and a table's) as globals."""
    env.globals["_"] = Words(profile).word
    macros: Any = env.get_template("fragments.html").module  # (its attributes are the template's macros)
    env.globals.update(inline=macros.inline, content=macros.content, renumbered=macros.renumbered,
                       law_table=macros.table, text_block=macros.text_block, original_table=macros.original_table)
