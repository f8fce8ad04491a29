"""English: the language of the WBF Laws of Duplicate Bridge, the original the Dutch book translates."""
from ..profile import Profile
from . import rules, words

PROFILE = Profile(code="en", region="US", name="English", rules=rules, words=words.WORDS)
