"""The words French readers see in the outputs, keyed by their English (as templates name them: _("…")).

Each is a %-format string: `%(num)s` is where the value goes (so a phrase keeps its own word
order), a literal % is written %%. Words the HTML pages print are trusted as markup (<code>);
the other outputs escape them. The keys are the Dutch profile's (nl/words.py), the one list of
words every profile covers; tests/test_french.py checks that this profile has every one.

The book's own usage: a numbered part is "la Loi 53" (capitalised, as the FFB writes it), its cross-
references "renvois", its editors "la rédaction". French typography puts a no-break space before
":", ";", "?" and "!" and inside « »: the words below are written with a plain space there, and
_spaced() makes it the no-break space (U+00A0), so a line never starts with a colon.
"""
import re

_WORDS = {
    # -- every output
    "Laws of Duplicate Bridge": "Code International du Bridge de Compétition",
    "Definitions": "Définitions",
    "Article %(num)s": "Loi %(num)s",
    "article %(num)s": "Loi %(num)s",
    "Edition %(edition)s": "Édition %(edition)s",
    "edition %(edition)s": "édition %(edition)s",
    "edition": "édition",
    "Commentary — %(author)s": "Commentaire — %(author)s",
    "Commentary on article %(num)s": "Commentaire sur la Loi %(num)s",
    "not in this corpus": "absent de ce corpus",
    "Editorial note:": "Note de la rédaction :",
    "Editorial note on %(cite)s: %(text)s": "Note de la rédaction sur %(cite)s : %(text)s",
    "the law text of article %(num)s is in none of the sources.":
        "le texte de la Loi %(num)s ne figure dans aucune des sources.",

    # -- HTML: every page
    "Skip to the content": "Aller au contenu",
    "Search the laws": "Rechercher dans les Lois",
    "Find": "Chercher",
    "Search": "Recherche",
    "Editions": "Éditions",
    "Editorial": "Rédaction",
    "Breadcrumb": "Fil d’Ariane",

    # -- HTML and PDF: the book's index (templates/html/register.html, templates/pdf/register.typ.j2)
    "Index": "Index",
    # The index's page of the site, in html/<edition>/ (a file name: not "index.html", the edition's contents).
    "index-of-terms.html": "index-des-termes.html",
    "see": "voir",
    "see also": "voir aussi",
    "Where the Laws deal with what, as the book's index gives it; each citation links to the text it cites.":
        "Où les Lois traitent de quoi, tel que l’index du livre le donne ; chaque renvoi mène au texte qu’il cite.",

    # -- HTML: the index of editions
    "The laws of duplicate bridge, edition by edition. To open an article or one of its parts, type its number "
    "in the search box: <kbd>53A</kbd>, <kbd>50D2(a)</kbd>.":
        "Les Lois du bridge de compétition, édition par édition. Pour ouvrir une Loi ou l’une de ses parties, "
        "tapez son numéro dans la case de recherche : <kbd>53A</kbd>, <kbd>50D2(a)</kbd>.",
    "%(count)s articles:": "%(count)s Lois :",
    "References between the articles (graph)": "Renvois entre les Lois (graphe)",
    "Search the text": "Rechercher dans le texte",
    "The book as PDF": "Le livre en PDF",
    "Editorial: build report with repairs, inferred numbering, variants and missing text":
        "Rédaction : rapport de compilation, avec les réparations, la numérotation déduite, les variantes et le "
        "texte manquant",

    # -- HTML: an edition's contents
    "Contents": "Table des matières",
    "commentary only": "commentaire seulement",
    "title missing": "titre manquant",
    "References between the articles of edition %(edition)s (graph)":
        "Renvois entre les Lois de l’édition %(edition)s (graphe)",

    # -- HTML: an article
    "the title of this article is in none of the sources.": "le titre de cette Loi ne figure dans aucune des sources.",
    "This article in edition %(edition)s": "Cette Loi dans l’édition %(edition)s",
    "Compare %(editions)s": "Comparer %(editions)s",
    "the law text of article %(num)s is in none of the sources; this page holds only its commentary.":
        "le texte de la Loi %(num)s ne figure dans aucune des sources ; cette page n’en contient que le commentaire.",
    "Notes": "Notes",
    "note %(number)s": "note %(number)s",
    "Table in %(cite)s": "Tableau (%(cite)s)",
    "Table of the original": "Tableau de l’original",
    "back to note %(number)s in the text": "retour à la note %(number)s dans le texte",
    "Not law text: personal commentary on article %(num)s.":
        "Hors du texte des Lois : commentaire personnel sur la Loi %(num)s.",
    "References and navigation": "Renvois et navigation",
    "Cited in": "Cité dans",
    "cites %(cite)s": "cite %(cite)s",
    "Contents %(edition)s": "Table des matières %(edition)s",
    "Numbering inferred: %(evidence)s": "Numérotation déduite : %(evidence)s",
    "text is missing from the sources here": "ici, du texte manque dans les sources",
    "also: %(cites)s": "aussi : %(cites)s",
    "reference uncertain": "renvoi incertain",

    # -- HTML: the reference graph
    "References in edition %(edition)s": "Renvois dans l’édition %(edition)s",
    "References": "Renvois",
    "Each arrow is a reference in the text of one article to another; a thicker arrow stands for more references. "
    "Click an article to open it. Dotted circles are articles that are cited but not in this corpus.":
        "Chaque flèche est un renvoi du texte d’une Loi à une autre ; une flèche plus épaisse représente plus de "
        "renvois. Cliquez sur une Loi pour l’ouvrir. Les cercles en pointillé sont des Lois citées mais absentes de "
        "ce corpus.",
    "References between the articles of edition %(edition)s":
        "Renvois entre les Lois de l’édition %(edition)s",
    "As a list": "Sous forme de liste",
    "cites": "cite",
    "No references between articles have been found (yet).":
        "Aucun renvoi entre les Lois n’a été trouvé (pour l’instant).",

    # -- HTML: the editor's page
    "Editorial: build report": "Rédaction : rapport de compilation",
    "build report": "rapport de compilation",
    "Everything the pipeline did to the sources or inferred from them, with source file and line. For the laws "
    "committee; this page is not law text.":
        "Tout ce que la chaîne de traitement a fait aux sources ou en a déduit, avec le fichier source et la ligne. "
        "Pour la commission des Lois ; cette page n’est pas un texte des Lois.",
    "On this page": "Sur cette page",
    "Repairs": "Réparations",
    "Text the pipeline has mended (before → after).": "Texte que la chaîne de traitement a réparé (avant → après).",
    "Inferred numbering": "Numérotation déduite",
    "Numbering or structure the source does not state but that was inferred.":
        "Numérotation ou structure que la source n’indique pas, mais qui a été déduite.",
    "Variants": "Variantes",
    "Sources that give the same text slightly differently; which reading was chosen.":
        "Sources qui donnent le même texte un peu différemment ; quelle leçon a été retenue.",
    "Missing text": "Texte manquant",
    "Text the law has but the sources do not.": "Texte que les Lois contiennent, mais que les sources n’ont pas.",
    "References that do not resolve": "Renvois sans cible",
    "References to places that are not in this corpus, or that are marked as doubtful.":
        "Renvois vers des endroits absents de ce corpus, ou marqués comme douteux.",
    "Other messages": "Autres messages",
    "Sources": "Sources",
    "None.": "Aucun.",
    "%(count)s lines": "%(count)s lignes",

    # -- HTML: the committee's corrections (marks in the law text, their section on the editor's page)
    "corrected by the laws committee against the original; the sources say: ‘%(was)s’; basis: %(basis)s":
        "corrigé par la commission des Lois d’après l’original ; les sources disent : « %(was)s » ; motif : %(basis)s",
    "correction: what the sources say": "correction : ce que disent les sources",
    "renumbered by the laws committee against the original; the sources number it %(cite)s; basis: %(basis)s":
        "renuméroté par la commission des Lois d’après l’original ; les sources le numérotent %(cite)s ; motif : "
        "%(basis)s",
    "words": "mots",
    "corrected by the laws committee against the original; the mark shows what the sources say, and why":
        "corrigé par la commission des Lois d’après l’original ; la marque montre ce que disent les sources, et "
        "pourquoi",
    "renumbered by the laws committee against the original: the number the sources give":
        "renuméroté par la commission des Lois d’après l’original : le numéro que donnent les sources",
    "Corrections": "Corrections",
    "The laws committee's corrections against the original (<code>sources/corrections.toml</code>), as the book "
    "applies them: what the sources say, what the book says now, and the basis. In the law text the corrected "
    "words and renumbered parts carry a small mark that links here; each node below links to its mark.":
        "Les corrections de la commission des Lois d’après l’original (<code>sources/corrections.toml</code>), telles "
        "que le livre les applique : ce que disent les sources, ce que dit désormais le livre, et le motif. Dans le "
        "texte des Lois, les mots corrigés et les parties renumérotées portent une petite marque qui renvoie ici ; "
        "chaque partie ci-dessous renvoie à sa marque.",
    "basis: %(basis)s": "motif : %(basis)s",
    "the sources": "les sources",
    "the book": "le livre",

    # -- HTML: the editor's comparison with the original (build --reference)
    "Comparison with the original": "Comparaison avec l’original",
    "The book compared node by node with the original, <code>%(reference)s</code>, as <code>lawbook align</code> "
    "compares them: citation IDs, structure, references, notes and gaps, never words. Editions compared: "
    "%(editions)s.":
        "Le livre comparé partie par partie avec l’original, <code>%(reference)s</code>, comme <code>lawbook "
        "align</code> les compare : identifiants des citations, structure, renvois, notes et lacunes, jamais les "
        "mots. Éditions comparées : %(editions)s.",
    "Not in the original: %(editions)s.": "Absentes de l’original : %(editions)s.",
    "original": "original",
    "references here %(here)s, in the original %(there)s": "renvois ici %(here)s, dans l’original %(there)s",
    "notes here %(here)s, in the original %(there)s": "notes ici %(here)s, dans l’original %(there)s",
    "Both have it; its references point elsewhere than the original's.":
        "Les deux l’ont ; ses renvois pointent ailleurs que ceux de l’original.",
    "Both have it, with a different number of notes.": "Les deux l’ont, avec un nombre de notes différent.",
    "Both have it; a table of it differs from the original's in its rows, its cells or its numbers.":
        "Les deux l’ont ; un de ses tableaux diffère de celui de l’original par ses lignes, ses cellules ou ses nombres.",
    "The sources have a gap where the original has text.": "Les sources ont une lacune là où l’original a du texte.",
    "Here, but not in the original.": "Ici, mais pas dans l’original.",
    "In the original, inside a part the sources show, but not here.":
        "Dans l’original, à l’intérieur d’une partie que les sources montrent, mais pas ici.",
    "Different from the original on purpose: a correction accepts it.":
        "Différent de l’original à dessein : une correction l’accepte.",
    "In the original, outside every part the sources show.":
        "Dans l’original, hors de toute partie que les sources montrent.",
    "Articles only in the original, not compared: %(list)s.":
        "Lois seulement dans l’original, non comparées : %(list)s.",
    "Articles only in this book, not compared: %(list)s.":
        "Lois seulement dans ce livre, non comparées : %(list)s.",
    "References that do not resolve, against the original": "Renvois sans cible, au regard de l’original",
    "Each cited place that is not in this book: %(in)s in the original (the sources lack it), %(nowhere)s nowhere "
    "(the original has it neither: the citation is wrong, or the original cites outside itself), %(absent)s in an "
    "edition the original does not hold.":
        "Chaque endroit cité qui n’est pas dans ce livre : %(in)s dans l’original (les sources ne l’ont pas), "
        "%(nowhere)s nulle part (l’original ne l’a pas non plus : la citation est fausse, ou l’original cite hors de "
        "lui-même), %(absent)s dans une édition que l’original ne contient pas.",
    "%(pages)s not in the pages of the original given (they are not the whole book: whether it has them is "
    "unknown).":
        "%(pages)s absents des pages de l’original fournies (elles ne sont pas le livre entier : on ne sait pas s’il "
        "les contient).",

    # -- HTML: search
    "Note:": "Remarque :",
    "search works only when the site is opened through a web server, for example with "
    "<code>python -m pipeline serve</code>.":
        "la recherche ne fonctionne que si le site est ouvert par un serveur web, par exemple avec "
        "<code>python -m pipeline serve</code>.",
    "Search needs JavaScript.": "La recherche nécessite JavaScript.",
    "Article %(num)s is not in this edition.": "La Loi %(num)s ne figure pas dans cette édition.",
    "Article %(num)s is not in this edition; it is in edition %(edition)s.":
        "La Loi %(num)s ne figure pas dans cette édition ; elle figure dans l’édition %(edition)s.",
    "Did you mean:": "Vouliez-vous dire :",
    "the search index could not be loaded; citations (53A, 2007 41B) still work.":
        "l’index de recherche n’a pas pu être chargé ; les citations (53A, 2007 41B) fonctionnent toujours.",

    # -- HTML: the edition in force, keys and links
    "Edition %(edition)s is not the edition in force.": "L’édition %(edition)s n’est pas l’édition en vigueur.",
    "This article in the edition in force (%(edition)s)": "Cette Loi dans l’édition en vigueur (%(edition)s)",
    "The edition in force (%(edition)s)": "L’édition en vigueur (%(edition)s)",
    "Copy the link to %(cite)s": "Copier le lien vers %(cite)s",
    "Link copied": "Lien copié",
    "Previous and next article": "Loi précédente et Loi suivante",
    "Contents of edition %(edition)s": "Table des matières de l’édition %(edition)s",

    # -- HTML: the reader's site (legends, sections, offline, comparison, search, 404)
    "refers to an article that is not in this edition": "renvoie à une Loi qui ne figure pas dans cette édition",
    "article": "Loi",
    "numbering inferred": "numérotation déduite",
    "Editor view": "Vue de la rédaction",
    "numbering inferred: the sources do not write this number, the order of the text gives it":
        "numérotation déduite : les sources n’écrivent pas ce numéro, l’ordre du texte le donne",
    "Sections of article %(num)s": "Parties de la Loi %(num)s",
    "Article (53A) or word": "Loi (53A) ou mot",
    "The entry on the editor's page": "L’entrée sur la page de la rédaction",
    "The picture is wider than the screen: swipe it sideways to see all of it.":
        "La figure est plus large que l’écran : faites-la glisser de côté pour la voir en entier.",
    "Sections (%(count)s)": "Parties (%(count)s)",
    "Menu": "Menu",
    "commentary, not law text": "commentaire, hors du texte des Lois",
    "commentary on article %(num)s": "commentaire sur la Loi %(num)s",
    "in force": "en vigueur",
    "What has changed": "Ce qui a changé",
    "Comparison %(old)s → %(new)s": "Comparaison %(old)s → %(new)s",
    "This is the edition in force.": "C’est l’édition en vigueur.",
    "An earlier edition; the newest edition is the one in force.":
        "Une édition antérieure ; la plus récente est celle qui est en vigueur.",
    "not in this edition": "absent de cette édition",
    "Each arrow is a reference in the text of one article to another, drawn from the citing article down to the "
    "cited one; a thicker arrow stands for more references, a dashed arrow is a reference in commentary. Click an "
    "article to open it. Dotted circles are articles that are cited but not in this edition; a circle with a "
    "double rim has only commentary.":
        "Chaque flèche est un renvoi du texte d’une Loi à une autre, tracé de la Loi qui cite vers le bas jusqu’à la "
        "Loi citée ; une flèche plus épaisse représente plus de renvois, une flèche en tirets est un renvoi dans un "
        "commentaire. Cliquez sur une Loi pour l’ouvrir. Les cercles en pointillé sont des Lois citées mais absentes "
        "de cette édition ; un cercle à double bord n’a qu’un commentaire.",
    "set aside": "écartée",
    "kept": "retenue",
    "before": "avant",
    "after": "après",
    "References to places that are not in this corpus, or that are marked as doubtful, one per cited place as "
    "<code>lawbook check</code> counts them: %(dangling)s dangling, %(suspect)s suspect, %(known)s known missing. "
    "Readers see a dangling reference in a quiet style with a legend; here it is red.":
        "Renvois vers des endroits absents de ce corpus, ou marqués comme douteux, un par endroit cité, comme "
        "<code>lawbook check</code> les compte : %(dangling)s sans cible, %(suspect)s douteux, %(known)s manquants "
        "connus. Les lecteurs voient un renvoi sans cible dans un style discret, avec une légende ; ici, il est en "
        "rouge.",
    "A citation (53A, 2007 41B, art. 16C) opens it; other words search the text.":
        "Une citation (53A, 2007 41B, Loi 16C) l’ouvre directement ; les autres mots sont cherchés dans le texte.",
    "Edition": "Édition",
    "all editions": "toutes les éditions",
    "No results.": "Aucun résultat.",
    "%(count)s results": "%(count)s résultats",
    "searching the text works only when the site is opened through a web server, for example with "
    "<code>python -m pipeline serve</code>; citations work everywhere.":
        "la recherche dans le texte ne fonctionne que si le site est ouvert par un serveur web, par exemple avec "
        "<code>python -m pipeline serve</code> ; les citations fonctionnent partout.",
    "Page not found": "Page introuvable",
    "This address is not a page of the laws. Perhaps it was mistyped, or the article is not in this edition.":
        "Cette adresse n’est pas une page des Lois. Elle a peut-être été mal tapée, ou la Loi ne figure pas dans "
        "cette édition.",
    "The editions": "Les éditions",
    "Bad address": "Adresse invalide",
    "This address holds characters or parts that no page of the laws has.":
        "Cette adresse contient des caractères ou des parties qu’aucune page des Lois ne comporte.",
    "Laws": "Lois",
    "only in the sources of %(edition)s": "seulement dans les sources de %(edition)s",
    "not in the sources of %(edition)s": "absent des sources de %(edition)s",
    "Read in edition:": "Lire dans l’édition :",
    "Not comparable: the sources of %(missing)s lack this article, which does not mean that edition %(missing)s "
    "lacks it.":
        "Non comparable : les sources de %(missing)s n’ont pas cette Loi, ce qui ne veut pas dire que l’édition "
        "%(missing)s ne l’avait pas.",
    "not comparable: missing from the sources of %(old)s": "non comparable : absent des sources de %(old)s",
    "not comparable: missing from the sources of %(new)s": "non comparable : absent des sources de %(new)s",

    # -- PDF
    "Dutch Bridge Federation": "Fédération Française de Bridge",
    "printed edition %(edition)s": "édition %(edition)s",
    "Printed edition %(edition)s": "Édition %(edition)s",
    ", without commentary": ", sans commentaires",
    "bridge": "bridge",
    "laws": "lois",
    "Sources as of %(date)s": "État des sources au %(date)s",
    "%(month)s %(day)s, %(year)s": "%(day)s %(month)s %(year)s",
    "January": "janvier", "February": "février", "March": "mars", "April": "avril", "May": "mai",
    "June": "juin", "July": "juillet", "August": "août", "September": "septembre", "October": "octobre",
    "November": "novembre", "December": "décembre",
    "Official text, without commentary": "Texte officiel, sans commentaires",
    "Commentary": "Commentaire",
    "Commentaries": "Commentaires",
    "Commentary on articles that are not in this edition.":
        "Commentaires sur des Lois qui ne figurent pas dans cette édition.",
    "text missing from the sources": "texte manquant dans les sources",
    "Articles %(first)s–%(last)s": "Lois %(first)s–%(last)s",
    "This edition is compiled from these source files:": "Cette édition est établie à partir de ces fichiers sources :",
    "This edition is compiled from these sources:": "Cette édition est établie à partir de ces sources :",
    "Sources without a description in the manifest: %(count)s.":
        "Sources sans description dans le manifeste : %(count)s.",
    "Where the sources lack text or a title, an editorial remark in square brackets says so.":
        "Là où les sources n’ont pas un texte ou un titre, une remarque de la rédaction entre crochets le signale.",
    "The commentaries are not part of the official text; each says who wrote it.":
        "Les commentaires ne font pas partie du texte officiel ; chacun indique qui l’a écrit.",
    "Set in Libertinus Serif with Typst.": "Composé en Libertinus Serif avec Typst.",
    "Made with lawbook %(version)s.": "Réalisé avec lawbook %(version)s.",
    "Digest of the sources (SHA-256): %(digest)s.": "Empreinte des sources (SHA-256) : %(digest)s.",
    # The PDF's bookmarks of the front matter (the contents' is "Contents")
    "Title page": "Page de titre",
    "Colophon": "Colophon",

    # -- the diff page
    "Laws %(old)s → %(new)s: what has changed": "Lois %(old)s → %(new)s : ce qui a changé",
    "Article by article, as a redline:": "Loi par Loi, en texte comparé :",
    "struck in %(edition)s": "supprimé en %(edition)s",
    "new in %(edition)s": "nouveau en %(edition)s",
    "not in %(edition)s": "absent en %(edition)s",
    "moved": "déplacé",
    "to another place": "vers un autre endroit",
    "note": "note",
    ", new": ", nouvelle",
    ", dropped": ", supprimée",
    ", changed": ", modifiée",
    "moved to %(place)s": "déplacé vers %(place)s",
    "moved from %(place)s": "déplacé depuis %(place)s",
    "was %(cite)s": "anciennement %(cite)s",
    "%(cite)s (opening words)": "%(cite)s (texte introductif)",
    " and ": " et ",
    "Incomplete in the sources of %(edition)s: %(reason)s": "Incomplet dans les sources de %(edition)s : %(reason)s",
    "Summary": "Résumé",
    "changed": "modifiée",
    "unchanged": "inchangée",
    "only in %(new)s": "seulement en %(new)s",
    "only in %(old)s": "seulement en %(old)s",
    "renumbered": "renumérotée",
    "Article": "Loi",
    "Title": "Titre",
    "Status": "Statut",
    "Changes": "Modifications",
    "title changed": "titre modifié",
    "new:": "nouveau :",
    "dropped:": "supprimé :",
    "renumbered:": "renuméroté :",
    "changed:": "modifié :",
    "references:": "renvois :",
    "moved sentences:": "phrases déplacées :",
    "Changed references": "Renvois modifiés",
    "What a tournament director must learn anew: where the text refers to another article.":
        "Ce qu’un arbitre doit réapprendre : là où le texte renvoie à une autre Loi.",
    "Place": "Endroit",
    "None: every reference points to the same article as in %(edition)s.":
        "Aucun : chaque renvoi pointe vers la même Loi qu’en %(edition)s.",
    "Reference in": "Renvoi dans",
    "none": "aucun",
    "Moved: from": "Déplacé : de",
    "to": "vers",
    "Text, notes and references the same in %(old)s and %(new)s.":
        "Texte, notes et renvois identiques en %(old)s et en %(new)s.",
    "This article is only in the sources of %(edition)s; there is nothing to compare it with.":
        "Cette Loi ne figure que dans les sources de %(edition)s ; il n’y a rien à quoi la comparer.",

    # -- HTML: the original beside the translation on an article page (build --reference; site/original.py)
    "Original alongside": "L’original en regard",
    "This article is not in the original.": "Cette Loi ne figure pas dans l’original.",
    "matches the original": "conforme à l’original",
    "references differ from the original": "les renvois diffèrent de ceux de l’original",
    "a different number of notes than the original": "un nombre de notes différent de celui de l’original",
    "a table differs from the original's": "un tableau diffère de celui de l’original",
    "the sources have a gap where the original has text": "les sources ont une lacune là où l’original a du texte",
    "not in the original": "absent de l’original",
    "in the original, missing here": "dans l’original, manquant ici",
    "different from the original on purpose (a correction)": "différent de l’original à dessein (une correction)",
    "in the original; not in the sources of this translation":
        "dans l’original ; absent des sources de cette traduction",

    # -- the committee's pages: the comparison's accents and spacing, the editor's page, the watch panel
    # The comparison (templates/diff/body.html, docs/diff.md "Accents and spacing")
    "accents or spacing only": "accents ou espaces seulement",
    "accents or spacing only:": "accents ou espaces seulement :",
    "accents or spacing only: not counted as a change of the text":
        "accents ou espaces seulement : pas compté comme une modification du texte",
    # The editor's page (templates/html/editor.html, site/editor.py)
    "Each source is named by its origin as the manifest (<code>sources.toml</code>) gives it, its file name "
    "beside it; the entries are those of <code>report.txt</code>, by file and line. Open a section to read it.":
        "Chaque source est nommée par sa provenance, telle que le manifeste (<code>sources.toml</code>) la donne, "
        "avec son nom de fichier à côté ; les entrées sont celles de <code>report.txt</code>, par fichier et par "
        "ligne. Ouvrez une rubrique pour la lire.",
    "not in a source file": "hors de tout fichier source",
    "line %(line)s": "ligne %(line)s",
    "page %(page)s, line %(line)s": "page %(page)s, ligne %(line)s",
    "repair": "réparation",
    "damage": "dommage",
    "inference": "déduction",
    "variant": "variante",
    "conflict": "contradiction",
    "gap": "lacune",
    "left out": "écarté",
    "error": "erreur",
    "dangling": "sans cible",
    "suspect": "douteux",
    "known missing": "manquant connu",
    "references differ": "renvois différents",
    "notes differ": "notes différentes",
    "a table differs": "un tableau diffère",
    "only here": "seulement ici",
    "missing here": "manquant ici",
    "accepted": "accepté",
    "not in the sources": "absent des sources",
    "match": "conforme",
    "in the original": "dans l’original",
    "nowhere": "nulle part",
    "not in the pages of the original given": "absent des pages de l’original fournies",
    "in an edition the original does not hold": "dans une édition que l’original n’a pas",
    "renumbering": "renumérotation",
    "words replaced": "mots remplacés",
    "accepted as it is": "accepté tel quel",
    "; ": " ; ",
    # The report's messages (site/editor.py, MESSAGES): the stages' English, in the book's words
    "duplicated words collapsed": "mots écrits deux fois ramenés à un",
    "line-end hyphen joined": "mot coupé en fin de ligne recollé",
    "paragraph continued": "paragraphe poursuivi",
    "a range broken at its dash at the line end joined": "intervalle coupé à son tiret en fin de ligne recollé",
    "kept: the next line does not continue a word": "conservé : la ligne suivante ne poursuit pas un mot",
    "kept: the hyphenated form is used elsewhere in the sources":
        "conservé : la forme avec trait d’union figure ailleurs dans les sources",
    "kept: a prefix that keeps its hyphen": "conservé : un préfixe qui garde son trait d’union",
    "%(rule)s across a page break (page furniture at %(at)s)":
        "%(rule)s, par-delà un changement de page (mise en page en %(at)s)",
    "malformed-note": "note mal formée lue comme note",
    "soft-hyphen mark dropped": "trait d’union conditionnel supprimé",
    "U+00AD read as a dash": "U+00AD lu comme un tiret",
    "space added after comma": "espace ajoutée après une virgule",
    "spaced hyphen read as a dash": "trait d’union entre espaces lu comme un tiret",
    "renumbered %(old)s to %(new)s by %(at)s (basis: %(ground)s)":
        "%(old)s renuméroté en %(new)s par %(at)s (fondement : %(ground)s)",
    "words corrected by %(at)s (basis: %(ground)s)": "mots corrigés par %(at)s (fondement : %(ground)s)",
    "section %(num)s of %(parent)s inferred from %(basis)s": "partie %(num)s de %(parent)s déduite selon %(basis)s",
    "subsection %(num)s of %(parent)s inferred from %(basis)s": "alinéa %(num)s de %(parent)s déduit selon %(basis)s",
    "item %(num)s of %(parent)s inferred from %(basis)s": "point %(num)s de %(parent)s déduit selon %(basis)s",
    "subitem %(num)s of %(parent)s inferred from %(basis)s": "sous-point %(num)s de %(parent)s déduit selon %(basis)s",
    "list number %(number)s.": "le numéro de liste %(number)s.",
    "list number %(number)s. indented %(levels)s level(s)":
        "le numéro de liste %(number)s., en retrait de %(levels)s niveau(x)",
    "the second list number in %(quote)s": "le second numéro de liste dans %(quote)s",
    "the order of the headings (the source has no letters)": "l’ordre des intitulés (la source n’a pas de lettres)",
    "paragraph %(k)s of %(n)s standing together under the section heading":
        "le paragraphe %(k)s des %(n)s réunis sous l’intitulé de la partie",
    "confirmed by %(evidence)s": "confirmé par %(evidence)s",
    "no citation in the sources confirms it": "aucune citation des sources ne le confirme",
    "%(quote)s read as the heading of section %(letter)s, followed by subsection %(sub)s":
        "%(quote)s lu comme l’intitulé de la partie %(letter)s, suivi de l’alinéa %(sub)s",
    "the heading %(quote)s of %(cite)s split from its text at %(start)s… by %(why)s":
        "l’intitulé %(quote)s de %(cite)s séparé de son texte à %(start)s… d’après %(why)s",
    "its line breaks: it stands alone on its line(s), the text after it starts a line":
        "ses fins de ligne : il est seul sur sa ou ses lignes, le texte qui suit commence une ligne",
    "%(chain)s created to hold %(new)s, by %(at)s (basis: %(ground)s)":
        "%(chain)s créé pour contenir %(new)s, par %(at)s (fondement : %(ground)s)",
    "capitalisation variant in %(node)s: %(change)s (%(here)s / %(there)s)":
        "variante de majuscules dans %(node)s : %(change)s (%(here)s / %(there)s)",
    "kept the first reading, which starts its sentences with a capital":
        "la première leçon est retenue, qui commence ses phrases par une majuscule",
    "kept the second reading, which starts its sentences with a capital":
        "la seconde leçon est retenue, qui commence ses phrases par une majuscule",
    "punctuation or spacing variant in %(node)s: %(change)s (%(here)s / %(there)s)":
        "variante de ponctuation ou d’espaces dans %(node)s : %(change)s (%(here)s / %(there)s)",
    "kept the first reading": "la première leçon est retenue",
    "the title of %(node)s is in none of the sources": "le titre de %(node)s ne figure dans aucune des sources",
    "%(node)s has only its heading: its text is in none of the sources":
        "de %(node)s il n’y a que l’intitulé : son texte ne figure dans aucune des sources",
    "%(node)s: the text that leads in to %(child)s (%(quote)s) is in none of the sources":
        "%(node)s : le texte qui introduit %(child)s (%(quote)s) ne figure dans aucune des sources",
    "article %(num)s is cut off at the end of %(place)s: the rest is on a page that is not in the sources":
        "la Loi %(num)s s’interrompt à la fin de %(place)s : la suite est sur une page absente des sources",
    "page %(page)s": "la page %(page)s",
    "the extraction": "l’extraction",
    "page number %(num)s": "numéro de page %(num)s",
    "page title %(quote)s: page context, not law text": "titre de page %(quote)s : contexte de la page, hors du texte des Lois",
    "template name %(quote)s: page context, not law text":
        "nom de modèle %(quote)s : contexte de la page, hors du texte des Lois",
    "running header %(quote)s: page layout, not law text":
        "titre courant %(quote)s : mise en page, hors du texte des Lois",
    "%(node)s begins a second time at line %(line)s (first at line %(first)s), but numbering does not go back "
    "inside one article: the text from here on is probably another article's, whose heading line was not "
    "recognised, and is set aside":
        "%(node)s commence une seconde fois à la ligne %(line)s (la première à la ligne %(first)s), mais la "
        "numérotation ne revient pas en arrière dans une même Loi : le texte à partir d’ici est sans doute celui "
        "d’une autre Loi, dont la ligne de titre n’a pas été reconnue, et il est mis de côté",
    "%(node)s at line %(line)s comes after %(other)s (line %(first)s), but numbering does not go back inside one "
    "article: the text from here on is probably another article's, whose heading line was not recognised, and "
    "is set aside":
        "%(node)s à la ligne %(line)s vient après %(other)s (ligne %(first)s), mais la numérotation ne revient pas "
        "en arrière dans une même Loi : le texte à partir d’ici est sans doute celui d’une autre Loi, dont la "
        "ligne de titre n’a pas été reconnue, et il est mis de côté",
    "check the lines above for a damaged article heading":
        "vérifiez dans les lignes au-dessus si un titre de Loi est abîmé",
    "%(node)s reads differently in %(here)s and %(there)s: %(change)s":
        "%(node)s se lit autrement en %(here)s et en %(there)s : %(change)s",
    "the first reading is kept until a source is corrected":
        "la première leçon est retenue jusqu’à ce qu’une source soit corrigée",
    "the sources folder does not exist": "le dossier des sources n’existe pas",
    "renumber %(old)s to %(new)s": "renuméroter %(old)s en %(new)s",
    "%(old)s renumbered": "%(old)s renuméroté",
    "made by renumbering %(list)s": "issu de la renumérotation de %(list)s",
    "replace %(words)s by %(by)s": "remplacer %(words)s par %(by)s",
    # lawbook serve --watch: the panel over a page when an edit did not build (pipeline/serve.py, panel_lines)
    "This change did not build: the site still shows the last build that did.":
        "Cette modification ne se compile pas : le site montre encore la dernière compilation réussie.",
    "%(origin)s (%(file)s)": "%(origin)s (%(file)s)",
    "%(source)s, line %(line)s": "%(source)s, ligne %(line)s",
    "Where: %(place)s": "Où : %(place)s",
    "What failed: %(message)s": "Ce qui a échoué : %(message)s",
    "What to do: correct the source at this line and save it; the whole report of the failed build is "
    "%(report)s.":
        "Que faire : corrigez la source à cette ligne et enregistrez-la ; le rapport complet de la compilation "
        "échouée est %(report)s.",
    "What to do: %(fix)s": "Que faire : %(fix)s",
    "The report holds %(count)s more errors.": "Le rapport contient encore %(count)s erreurs.",
    "Once the source builds, this page reloads with the new build by itself.":
        "Dès que la source se compile, cette page se recharge d’elle-même avec la nouvelle compilation.",
}

# A plain space before : ; ? ! and », and after «: the no-break space French typography sets there.
_BEFORE = re.compile(r" (?=[:;?!»])")
_AFTER = re.compile(r"(?<=«) ")


def _spaced(words: str) -> str:
    """The words with the no-break spaces of French typography (see the module docstring)."""
    return _AFTER.sub("\u00a0", _BEFORE.sub("\u00a0", words))


WORDS = {key: _spaced(value) for key, value in _WORDS.items()}
