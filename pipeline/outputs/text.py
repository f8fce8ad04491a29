"""What the outputs say: the reader's words from the book's language profile, and which references
stay plain words.

Reads: a language profile (pipeline/core/lang; its words.py maps English to the language).
Writes nothing. Every word is a %-format string (`"Article %(num)s"`), in Python (say) and in the
templates (jinja2's i18n extension, `{{ _("Article %(num)s", num=…) }}`) alike, so a phrase keeps
its own word order in every language and a literal % is written %%.
"""
import functools

from ..core import lang

# Reference statuses that mean the words cite something the corpus does not hold: printed unlinked.
UNRESOLVED = ("dangling", "known-missing")
# The book's title, as the profile words it.
TITLE = "Laws of Duplicate Bridge"


def profile_of(job):
    """The profile an output stage writes in: the book's (job.profile, the manifest's language)."""
    return job.profile


def say(profile, english, **values):
    """The profile's words for `english`, with `values` put in: say(nl, "Article %(num)s", num="53")."""
    return profile.word(english) % values


def title(profile):
    return profile.word(TITLE)


def install(env, profile, newstyle=True):
    """Give the templates of `env` the profile's words as _() (and gettext/ngettext).
    newstyle: _() formats its keyword arguments in and, under autoescape, trusts the words as
    markup and escapes the values (HTML); without it _() returns the plain words (Typst, where the
    environment escapes every printed value itself)."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(
        gettext=profile.word,
        ngettext=lambda singular, plural, n: profile.word(singular if n == 1 else plural),
        newstyle=newstyle)
    env.globals.update(lang=profile.code, region=profile.region, title=title(profile))
    return env


def per_profile(make):
    """`make(profile)` made once per profile (a jinja2 environment compiles each template once);
    no profile means Dutch. Profiles hold a dict, so they are told apart by identity."""
    made = {}

    @functools.wraps(make)
    def get(profile=None):
        profile = profile or lang.profile()
        if id(profile) not in made:
            made[id(profile)] = (profile, make(profile))  # the profile kept, so its id stays its own
        return made[id(profile)][1]
    return get
