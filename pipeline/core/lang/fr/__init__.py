"""French: the language of the FFB's Code International du Bridge de Compétition, its translation of the
WBF Laws of Duplicate Bridge."""
from ..profile import Profile
from . import rules, words

PROFILE = Profile(code="fr", region="FR", name="Français", rules=rules, words=words.WORDS)
