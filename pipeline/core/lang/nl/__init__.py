"""Dutch: the language of the Spelregels voor Wedstrijdbridge."""
from ..profile import Profile
from . import rules, words

PROFILE = Profile(code="nl", region="NL", name="Nederlands", rules=rules, words=words.WORDS)
