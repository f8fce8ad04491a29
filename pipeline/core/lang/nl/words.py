"""The words Dutch readers see in the outputs, keyed by their English (as templates name them: _("…"))."""

WORDS = {
}
