"""The words Dutch readers see in the outputs, keyed by their English (as templates name them: _("…")).

Each is a %-format string: `%(num)s` is where the value goes (so a phrase keeps its own word
order), a literal % is written %%. Words the HTML pages print are trusted as markup (<code>);
the other outputs escape them.
"""

WORDS = {
    # -- every output
    "Laws of Duplicate Bridge": "Spelregels voor Wedstrijdbridge",
    "Definitions": "Begripsomschrijvingen",
    "Article %(num)s": "Artikel %(num)s",
    "article %(num)s": "artikel %(num)s",
    "Edition %(edition)s": "Uitgave %(edition)s",
    "edition %(edition)s": "uitgave %(edition)s",
    "edition": "uitgave",
    "Commentary — %(author)s": "Toelichting — %(author)s",
    "Commentary on article %(num)s": "Toelichting bij artikel %(num)s",
    "not in this corpus": "niet in dit corpus",
    "Editorial note:": "Redactie:",
    "Editorial note on %(cite)s: %(text)s": "Redactie bij %(cite)s: %(text)s",
    "the law text of article %(num)s is in none of the sources.":
        "de wettekst van artikel %(num)s staat in geen van de bronnen.",

    # -- HTML: every page
    "Skip to the content": "Naar de inhoud",
    "Search the laws": "Zoeken in de spelregels",
    "Find": "Zoek",
    "Search": "Zoeken",
    "Editions": "Uitgaven",
    "Editorial": "Redactie",
    "Breadcrumb": "Kruimelpad",

    # -- HTML and PDF: the book's index (templates/html/register.html, templates/pdf/register.typ.j2)
    "Index": "Register",
    # The index's page of the site, in html/<edition>/ (a file name: the language's word for the index).
    "index-of-terms.html": "register.html",
    "see": "zie",
    "see also": "zie ook",
    "Where the Laws deal with what, as the book's index gives it; each citation links to the text it cites.":
        "Waar de spelregels wat regelen, zoals het register van het boek het geeft; elke verwijzing linkt naar "
        "de tekst die zij noemt.",

    # -- HTML: the index of editions
    "The laws of duplicate bridge, edition by edition. To open an article or one of its parts, type its number "
    "in the search box: <kbd>53A</kbd>, <kbd>50D2(a)</kbd>.":
        "De spelregels voor wedstrijdbridge, per uitgave. Typ het nummer van een artikel of een onderdeel ervan "
        "in het zoekvak en u staat er meteen: <kbd>53A</kbd>, <kbd>50D2(a)</kbd>.",
    "%(count)s articles:": "%(count)s artikelen:",
    "References between the articles (graph)": "Verwijzingen tussen de artikelen (grafiek)",
    "Search the text": "Zoeken in de tekst",
    "The book as PDF": "Het boek als pdf",
    "Editorial: build report with repairs, inferred numbering, variants and missing text":
        "Redactie: bouwverslag met reparaties, afgeleide nummering, varianten en ontbrekende tekst",

    # -- HTML: an edition's contents
    "Contents": "Inhoud",
    "commentary only": "alleen toelichting",
    "title missing": "titel ontbreekt",
    "References between the articles of edition %(edition)s (graph)":
        "Verwijzingen tussen de artikelen van uitgave %(edition)s (grafiek)",

    # -- HTML: an article
    "the title of this article is in none of the sources.": "de titel van dit artikel staat in geen van de bronnen.",
    "This article in edition %(edition)s": "Dit artikel in uitgave %(edition)s",
    "Compare %(editions)s": "Vergelijk %(editions)s",
    "the law text of article %(num)s is in none of the sources; this page holds only its commentary.":
        "de wettekst van artikel %(num)s staat in geen van de bronnen; deze pagina bevat alleen de toelichting "
        "erop.",
    "Notes": "Noten",
    "note %(number)s": "noot %(number)s",
    "Table in %(cite)s": "Tabel in %(cite)s",
    "Table of the original": "Tabel van het origineel",
    "back to note %(number)s in the text": "terug naar noot %(number)s in de tekst",
    "Not law text: personal commentary on article %(num)s.":
        "Geen wettekst: persoonlijke toelichting bij artikel %(num)s.",
    "References and navigation": "Verwijzingen en navigatie",
    "Cited in": "Wordt genoemd in",
    "cites %(cite)s": "noemt %(cite)s",
    "Contents %(edition)s": "Inhoud %(edition)s",
    "Numbering inferred: %(evidence)s": "Nummering afgeleid: %(evidence)s",
    "text is missing from the sources here": "hier ontbreekt tekst in de bronnen",
    "also: %(cites)s": "ook: %(cites)s",
    "reference uncertain": "verwijzing onzeker",

    # -- HTML: the reference graph
    "References in edition %(edition)s": "Verwijzingen in uitgave %(edition)s",
    "References": "Verwijzingen",
    "Each arrow is a reference in the text of one article to another; a thicker arrow stands for more references. "
    "Click an article to open it. Dotted circles are articles that are cited but not in this corpus.":
        "Elke pijl is een verwijzing in de tekst van het ene artikel naar het andere; een dikkere pijl staat voor "
        "meer verwijzingen. Klik op een artikel om het te openen. Gestippelde cirkels zijn artikelen die genoemd "
        "worden maar niet in dit corpus staan.",
    "References between the articles of edition %(edition)s":
        "Verwijzingen tussen de artikelen van uitgave %(edition)s",
    "As a list": "Als lijst",
    "cites": "noemt",
    "No references between articles have been found (yet).":
        "Er zijn (nog) geen verwijzingen tussen artikelen gevonden.",

    # -- HTML: the editor's page
    "Editorial: build report": "Redactie: bouwverslag",
    "build report": "bouwverslag",
    "Everything the pipeline did to the sources or inferred from them, with source file and line. For the laws "
    "committee; this page is not law text.":
        "Alles wat de pijplijn aan de bronnen heeft gedaan of afgeleid, met bronbestand en regel. Voor de "
        "regelcommissie; deze pagina is geen wettekst.",
    "On this page": "Op deze pagina",
    "Repairs": "Reparaties",
    "Text the pipeline has mended (before → after).": "Tekst die de pijplijn heeft hersteld (voor → na).",
    "Inferred numbering": "Afgeleide nummering",
    "Numbering or structure the source does not state but that was inferred.":
        "Nummering of structuur die niet in de bron staat maar is afgeleid.",
    "Variants": "Varianten",
    "Sources that give the same text slightly differently; which reading was chosen.":
        "Bronnen die dezelfde tekst net anders geven; welke lezing is gekozen.",
    "Missing text": "Ontbrekende tekst",
    "Text the law has but the sources do not.": "Tekst die de wet heeft maar de bronnen niet.",
    "References that do not resolve": "Verwijzingen die niet kloppen",
    "References to places that are not in this corpus, or that are marked as doubtful.":
        "Verwijzingen naar plaatsen die niet in dit corpus staan, of die als twijfelachtig zijn gemarkeerd.",
    "Other messages": "Overige meldingen",
    "Sources": "Bronnen",
    "None.": "Geen.",
    "%(count)s lines": "%(count)s regels",

    # -- HTML: the committee's corrections (marks in the law text, their section on the editor's page)
    "corrected by the laws committee against the original; the sources say: ‘%(was)s’; basis: %(basis)s":
        "gecorrigeerd door de regelcommissie naar het origineel; de bronnen zeggen: ‘%(was)s’; grond: %(basis)s",
    "correction: what the sources say": "correctie: wat de bronnen zeggen",
    "renumbered by the laws committee against the original; the sources number it %(cite)s; basis: %(basis)s":
        "vernummerd door de regelcommissie naar het origineel; de bronnen nummeren het %(cite)s; grond: %(basis)s",
    "words": "woorden",
    "corrected by the laws committee against the original; the mark shows what the sources say, and why":
        "gecorrigeerd door de regelcommissie naar het origineel; het teken wijst naar wat de bronnen zeggen, en "
        "waarom",
    "renumbered by the laws committee against the original: the number the sources give":
        "vernummerd door de regelcommissie naar het origineel: het nummer dat de bronnen geven",
    "Corrections": "Correcties",
    "The laws committee's corrections against the original (<code>sources/corrections.toml</code>), as the book "
    "applies them: what the sources say, what the book says now, and the basis. In the law text the corrected "
    "words and renumbered parts carry a small mark that links here; each node below links to its mark.":
        "De correcties van de regelcommissie naar het origineel (<code>sources/corrections.toml</code>), zoals het "
        "boek ze toepast: wat de bronnen zeggen, wat het boek nu zegt, en de grond. In de wettekst dragen de "
        "gecorrigeerde woorden en vernummerde delen een klein teken dat hierheen wijst; elk onderdeel hieronder "
        "wijst naar zijn teken.",
    "basis: %(basis)s": "grond: %(basis)s",
    "the sources": "de bronnen",
    "the book": "het boek",

    # -- HTML: the editor's comparison with the original (build --reference)
    "Comparison with the original": "Vergelijking met het origineel",
    "The book compared node by node with the original, <code>%(reference)s</code>, as <code>lawbook align</code> "
    "compares them: citation IDs, structure, references, notes and gaps, never words. Editions compared: "
    "%(editions)s.":
        "Het boek onderdeel voor onderdeel vergeleken met het origineel, <code>%(reference)s</code>, zoals "
        "<code>lawbook align</code> ze vergelijkt: vindplaatsen, structuur, verwijzingen, noten en gaten, nooit "
        "woorden. Vergeleken uitgaven: %(editions)s.",
    "Not in the original: %(editions)s.": "Niet in het origineel: %(editions)s.",
    "original": "origineel",
    "references here %(here)s, in the original %(there)s": "verwijzingen hier %(here)s, in het origineel %(there)s",
    "notes here %(here)s, in the original %(there)s": "noten hier %(here)s, in het origineel %(there)s",
    "Both have it; its references point elsewhere than the original's.":
        "Beide hebben het; de verwijzingen wijzen elders heen dan die van het origineel.",
    "Both have it, with a different number of notes.": "Beide hebben het, met een ander aantal noten.",
    "Both have it; a table of it differs from the original's in its rows, its cells or its numbers.":
        "Beide hebben het; een tabel ervan wijkt af van die van het origineel in haar rijen, haar cellen of haar getallen.",
    "The sources have a gap where the original has text.": "De bronnen hebben een gat waar het origineel tekst heeft.",
    "Here, but not in the original.": "Hier, maar niet in het origineel.",
    "In the original, inside a part the sources show, but not here.":
        "In het origineel, binnen een deel dat de bronnen tonen, maar niet hier.",
    "Different from the original on purpose: a correction accepts it.":
        "Met opzet anders dan het origineel: een correctie aanvaardt het.",
    "In the original, outside every part the sources show.": "In het origineel, buiten elk deel dat de bronnen tonen.",
    "Articles only in the original, not compared: %(list)s.":
        "Artikelen alleen in het origineel, niet vergeleken: %(list)s.",
    "Articles only in this book, not compared: %(list)s.":
        "Artikelen alleen in dit boek, niet vergeleken: %(list)s.",
    "References that do not resolve, against the original": "Verwijzingen die niet kloppen, naast het origineel",
    "Each cited place that is not in this book: %(in)s in the original (the sources lack it), %(nowhere)s nowhere "
    "(the original has it neither: the citation is wrong, or the original cites outside itself), %(absent)s in an "
    "edition the original does not hold.":
        "Elke genoemde plaats die niet in dit boek staat: %(in)s in het origineel (de bronnen missen haar), "
        "%(nowhere)s nergens (ook het origineel heeft haar niet: de verwijzing is fout, of het origineel verwijst "
        "buiten zichzelf), %(absent)s in een uitgave die het origineel niet heeft.",
    "%(pages)s not in the pages of the original given (they are not the whole book: whether it has them is "
    "unknown).":
        "%(pages)s niet in de gegeven bladzijden van het origineel (die zijn niet het hele boek: of het ze heeft, "
        "is onbekend).",

    # -- HTML: search
    "Note:": "Let op:",
    "search works only when the site is opened through a web server, for example with "
    "<code>python -m pipeline serve</code>.":
        "zoeken werkt alleen als de site via een webserver wordt geopend, bijvoorbeeld met "
        "<code>python -m pipeline serve</code>.",
    "Search needs JavaScript.": "Zoeken heeft JavaScript nodig.",
    "Article %(num)s is not in this edition.": "Artikel %(num)s staat niet in deze uitgave.",
    "Article %(num)s is not in this edition; it is in edition %(edition)s.":
        "Artikel %(num)s staat niet in deze uitgave; het staat in uitgave %(edition)s.",
    "Did you mean:": "Bedoelde u:",
    "the search index could not be loaded; citations (53A, 2007 41B) still work.":
        "de zoekindex kon niet worden geladen; vindplaatsen (53A, 2007 41B) werken wel.",

    # -- HTML: the edition in force, keys and links
    "Edition %(edition)s is not the edition in force.": "Uitgave %(edition)s is niet de geldende uitgave.",
    "This article in the edition in force (%(edition)s)": "Dit artikel in de geldende uitgave (%(edition)s)",
    "The edition in force (%(edition)s)": "De geldende uitgave (%(edition)s)",
    "Copy the link to %(cite)s": "Kopieer de link naar %(cite)s",
    "Link copied": "Link gekopieerd",
    "Previous and next article": "Vorig en volgend artikel",
    "Contents of edition %(edition)s": "Inhoud van uitgave %(edition)s",

    # -- HTML: the reader's site (legends, sections, offline, comparison, search, 404)
    "refers to an article that is not in this edition": "verwijst naar een artikel dat niet in deze uitgave staat",
    "article": "artikel",
    "numbering inferred": "nummering afgeleid",
    "Editor view": "Redactieweergave",
    "numbering inferred: the sources do not write this number, the order of the text gives it":
        "nummering afgeleid: de bronnen schrijven dit nummer niet, de volgorde van de tekst geeft het",
    "Sections of article %(num)s": "Onderdelen van artikel %(num)s",
    "Article (53A) or word": "Artikel (53A) of woord",
    "The entry on the editor's page": "De vermelding op de redactiepagina",
    "The picture is wider than the screen: swipe it sideways to see all of it.":
        "De figuur is breder dan het scherm: veeg haar opzij om alles te zien.",
    "Sections (%(count)s)": "Onderdelen (%(count)s)",
    "Menu": "Menu",
    "commentary, not law text": "toelichting, geen wettekst",
    "commentary on article %(num)s": "toelichting bij artikel %(num)s",
    "in force": "geldend",
    "What has changed": "Wat is er gewijzigd",
    "Comparison %(old)s → %(new)s": "Vergelijking %(old)s → %(new)s",
    "This is the edition in force.": "Dit is de geldende uitgave.",
    "An earlier edition; the newest edition is the one in force.":
        "Een eerdere uitgave; de nieuwste uitgave is de geldende.",
    "not in this edition": "niet in deze uitgave",
    "Each arrow is a reference in the text of one article to another, drawn from the citing article down to the "
    "cited one; a thicker arrow stands for more references, a dashed arrow is a reference in commentary. Click an "
    "article to open it. Dotted circles are articles that are cited but not in this edition; a circle with a "
    "double rim has only commentary.":
        "Elke pijl is een verwijzing in de tekst van het ene artikel naar het andere, getekend van het noemende "
        "artikel omlaag naar het genoemde; een dikkere pijl staat voor meer verwijzingen, een gestreepte pijl is "
        "een verwijzing in een toelichting. Klik op een artikel om het te openen. Gestippelde cirkels zijn "
        "artikelen die genoemd worden maar niet in deze uitgave staan; een cirkel met een brede rand heeft alleen "
        "een toelichting.",
    "set aside": "terzijde gelegd",
    "kept": "gekozen",
    "before": "voor",
    "after": "na",
    "References to places that are not in this corpus, or that are marked as doubtful, one per cited place as "
    "<code>lawbook check</code> counts them: %(dangling)s dangling, %(suspect)s suspect, %(known)s known missing. "
    "Readers see a dangling reference in a quiet style with a legend; here it is red.":
        "Verwijzingen naar plaatsen die niet in dit corpus staan, of die als twijfelachtig zijn gemarkeerd, één per "
        "genoemde plaats zoals <code>lawbook check</code> ze telt: %(dangling)s onopgelost, %(suspect)s twijfelachtig, "
        "%(known)s bekend ontbrekend. Lezers zien een onopgeloste verwijzing in een rustige stijl met een legenda; "
        "hier is ze rood.",
    "A citation (53A, 2007 41B, art. 16C) opens it; other words search the text.":
        "Een vindplaats (53A, 2007 41B, art. 16C) opent die meteen; andere woorden zoeken in de tekst.",
    "Edition": "Uitgave",
    "all editions": "alle uitgaven",
    "No results.": "Geen resultaten.",
    "%(count)s results": "%(count)s resultaten",
    "searching the text works only when the site is opened through a web server, for example with "
    "<code>python -m pipeline serve</code>; citations work everywhere.":
        "zoeken in de tekst werkt alleen als de site via een webserver wordt geopend, bijvoorbeeld met "
        "<code>python -m pipeline serve</code>; vindplaatsen werken overal.",
    "Page not found": "Pagina niet gevonden",
    "This address is not a page of the laws. Perhaps it was mistyped, or the article is not in this edition.":
        "Dit adres is geen pagina van de spelregels. Misschien is het verkeerd getypt, of staat het artikel niet in "
        "deze uitgave.",
    "The editions": "De uitgaven",
    "Bad address": "Ongeldig adres",
    "This address holds characters or parts that no page of the laws has.":
        "Dit adres bevat tekens of delen die geen pagina van de spelregels heeft.",
    "Laws": "Spelregels",
    "only in the sources of %(edition)s": "alleen in de bronnen van %(edition)s",
    "not in the sources of %(edition)s": "niet in de bronnen van %(edition)s",
    "Read in edition:": "Lezen in uitgave:",
    "Not comparable: the sources of %(missing)s lack this article, which does not mean that edition %(missing)s "
    "lacks it.":
        "Niet te vergelijken: de bronnen van %(missing)s missen dit artikel; dat wil niet zeggen dat uitgave "
        "%(missing)s het niet had.",
    "not comparable: missing from the sources of %(old)s": "niet te vergelijken: ontbreekt in de bronnen van %(old)s",
    "not comparable: missing from the sources of %(new)s": "niet te vergelijken: ontbreekt in de bronnen van %(new)s",

    # -- PDF
    "Dutch Bridge Federation": "Nederlandse Bridge Bond",
    "printed edition %(edition)s": "editie %(edition)s",
    "Printed edition %(edition)s": "Editie %(edition)s",
    ", without commentary": ", zonder toelichtingen",
    "bridge": "bridge",
    "laws": "spelregels",
    "Sources as of %(date)s": "Stand van de bronnen: %(date)s",
    "%(month)s %(day)s, %(year)s": "%(day)s %(month)s %(year)s",
    "January": "januari", "February": "februari", "March": "maart", "April": "april", "May": "mei",
    "June": "juni", "July": "juli", "August": "augustus", "September": "september", "October": "oktober",
    "November": "november", "December": "december",
    "Official text, without commentary": "Officiële tekst, zonder toelichtingen",
    "Commentary": "Toelichting",
    "Commentaries": "Toelichtingen",
    "Commentary on articles that are not in this edition.":
        "Toelichtingen bij artikelen die niet in deze uitgave staan.",
    "text missing from the sources": "tekst ontbreekt in de bronnen",
    "title missing": "titel ontbreekt",
    "Articles %(first)s–%(last)s": "Artikel %(first)s–%(last)s",
    "This edition is compiled from these source files:": "Deze uitgave is samengesteld uit deze bronbestanden:",
    "This edition is compiled from these sources:": "Deze uitgave is samengesteld uit deze bronnen:",
    "Sources without a description in the manifest: %(count)s.":
        "Bronnen zonder beschrijving in het manifest: %(count)s.",
    "Where the sources lack text or a title, an editorial remark in square brackets says so.":
        "Wat de bronnen aan tekst of titels missen, is aangegeven met een opmerking van de redactie tussen vierkante haken.",
    "The commentaries are not part of the official text; each says who wrote it.":
        "De toelichtingen horen niet bij de officiële tekst; elke toelichting vermeldt wie haar schreef.",
    "Set in Libertinus Serif with Typst.": "Gezet uit de Libertinus Serif met Typst.",
    "Made with lawbook %(version)s.": "Gemaakt met lawbook %(version)s.",
    "Digest of the sources (SHA-256): %(digest)s.": "Vingerafdruk van de bronnen (SHA-256): %(digest)s.",
    # The PDF's bookmarks of the front matter (the contents' is "Contents")
    "Title page": "Titelpagina",
    "Colophon": "Colofon",

    # -- the diff page
    "Laws %(old)s → %(new)s: what has changed": "Spelregels %(old)s → %(new)s: wat is er gewijzigd",
    "Article by article, as a redline:": "Per artikel in renvooi:",
    "struck in %(edition)s": "geschrapt in %(edition)s",
    "new in %(edition)s": "nieuw in %(edition)s",
    "not in %(edition)s": "niet in %(edition)s",
    "moved": "verplaatst",
    "to another place": "naar een andere plaats",
    "note": "noot",
    ", new": ", nieuw",
    ", dropped": ", vervallen",
    ", changed": ", gewijzigd",
    "moved to %(place)s": "verplaatst naar %(place)s",
    "moved from %(place)s": "verplaatst uit %(place)s",
    "was %(cite)s": "was %(cite)s",
    "%(cite)s (opening words)": "%(cite)s (aanhef)",
    " and ": " en ",
    "Incomplete in the sources of %(edition)s: %(reason)s": "Onvolledig in de bronnen van %(edition)s: %(reason)s",
    "Summary": "Overzicht",
    "changed": "gewijzigd",
    "unchanged": "ongewijzigd",
    "only in %(new)s": "alleen in %(new)s",
    "only in %(old)s": "alleen in %(old)s",
    "renumbered": "vernummerd",
    "Article": "Artikel",
    "Title": "Titel",
    "Status": "Status",
    "Changes": "Wijzigingen",
    "title changed": "titel gewijzigd",
    "new:": "nieuw:",
    "dropped:": "vervallen:",
    "renumbered:": "vernummerd:",
    "changed:": "gewijzigd:",
    "references:": "verwijzingen:",
    "moved sentences:": "verplaatste zinnen:",
    "Changed references": "Gewijzigde verwijzingen",
    "What a tournament director must learn anew: where the text refers to another article.":
        "Wat een wedstrijdleider opnieuw moet leren: waar de tekst naar een ander artikel verwijst.",
    "Place": "Plaats",
    "None: every reference points to the same article as in %(edition)s.":
        "Geen: elke verwijzing wijst naar hetzelfde artikel als in %(edition)s.",
    "Reference in": "Verwijzing in",
    "none": "geen",
    "Moved: from": "Verplaatst: uit",
    "to": "naar",
    "Text, notes and references the same in %(old)s and %(new)s.":
        "Tekst, noten en verwijzingen gelijk in %(old)s en %(new)s.",
    "This article is only in the sources of %(edition)s; there is nothing to compare it with.":
        "Dit artikel staat alleen in de bronnen van %(edition)s; er is niets om mee te vergelijken.",

    # -- HTML: the original beside the translation on an article page (build --reference; site/original.py)
    "Original alongside": "Origineel ernaast",
    "This article is not in the original.": "Dit artikel staat niet in het origineel.",
    "matches the original": "komt overeen met het origineel",
    "references differ from the original": "verwijzingen wijken af van het origineel",
    "a different number of notes than the original": "een ander aantal noten dan het origineel",
    "a table differs from the original's": "een tabel wijkt af van die van het origineel",
    "the sources have a gap where the original has text": "de bronnen hebben hier een leemte, het origineel heeft tekst",
    "not in the original": "niet in het origineel",
    "in the original, missing here": "in het origineel, ontbreekt hier",
    "different from the original on purpose (a correction)": "bewust anders dan het origineel (een correctie)",
    "in the original; not in the sources of this translation":
        "in het origineel; niet in de bronnen van deze vertaling",

    # -- the committee's pages: the comparison's accents and spacing, the editor's page, the watch panel
    # The comparison (templates/diff/body.html, docs/diff.md "Accents and spacing")
    "accents or spacing only": "alleen accenten/spaties",
    "accents or spacing only:": "alleen accenten/spaties:",
    "accents or spacing only: not counted as a change of the text":
        "alleen accenten/spaties: niet geteld als wijziging van de tekst",
    # The editor's page (templates/html/editor.html, site/editor.py)
    "Each source is named by its origin as the manifest (<code>sources.toml</code>) gives it, its file name "
    "beside it; the entries are those of <code>report.txt</code>, by file and line. Open a section to read it.":
        "Elke bron staat er met haar herkomst zoals het manifest (<code>sources.toml</code>) die geeft, de "
        "bestandsnaam ernaast; de vermeldingen zijn die van <code>report.txt</code>, per bestand en regel. Open "
        "een onderdeel om het te lezen.",
    "not in a source file": "niet in een bronbestand",
    "line %(line)s": "regel %(line)s",
    "page %(page)s, line %(line)s": "bladzijde %(page)s, regel %(line)s",
    "repair": "reparatie",
    "damage": "beschadiging",
    "inference": "afleiding",
    "variant": "variant",
    "conflict": "tegenstrijdigheid",
    "gap": "leemte",
    "left out": "weggelaten",
    "error": "fout",
    "dangling": "onopgelost",
    "suspect": "twijfelachtig",
    "known missing": "bekend ontbrekend",
    "references differ": "verwijzingen anders",
    "notes differ": "noten anders",
    "a table differs": "een tabel anders",
    "only here": "alleen hier",
    "missing here": "ontbreekt hier",
    "accepted": "aanvaard",
    "not in the sources": "niet in de bronnen",
    "match": "gelijk",
    "in the original": "in het origineel",
    "nowhere": "nergens",
    "not in the pages of the original given": "niet in de gegeven bladzijden van het origineel",
    "in an edition the original does not hold": "in een uitgave die het origineel niet heeft",
    "renumbering": "vernummering",
    "words replaced": "woorden vervangen",
    "accepted as it is": "aanvaard zoals het is",
    "; ": "; ",
    # The report's messages (site/editor.py, MESSAGES): the stages' English, in the book's words
    "duplicated words collapsed": "dubbel geschreven woorden tot één teruggebracht",
    "line-end hyphen joined": "woord dat aan het regeleinde was afgebroken, aaneengeschreven",
    "paragraph continued": "alinea loopt door",
    "a range broken at its dash at the line end joined":
        "reeks die aan het regeleinde bij haar streepje was afgebroken, aaneengeschreven",
    "kept: the next line does not continue a word": "behouden: de volgende regel zet geen woord voort",
    "kept: the hyphenated form is used elsewhere in the sources":
        "behouden: de vorm met streepje komt elders in de bronnen voor",
    "kept: a prefix that keeps its hyphen": "behouden: een voorvoegsel dat zijn streepje houdt",
    "%(rule)s across a page break (page furniture at %(at)s)":
        "%(rule)s, over een bladzijdegrens heen (paginaopmaak op %(at)s)",
    "malformed-note": "misvormde noot gelezen als noot",
    "soft-hyphen mark dropped": "zacht afbreekteken weggelaten",
    "U+00AD read as a dash": "U+00AD gelezen als gedachtestreepje",
    "space added after comma": "spatie na komma toegevoegd",
    "spaced hyphen read as a dash": "streepje tussen spaties gelezen als gedachtestreepje",
    "renumbered %(old)s to %(new)s by %(at)s (basis: %(ground)s)":
        "%(old)s vernummerd tot %(new)s door %(at)s (grond: %(ground)s)",
    "words corrected by %(at)s (basis: %(ground)s)": "woorden gecorrigeerd door %(at)s (grond: %(ground)s)",
    "section %(num)s of %(parent)s inferred from %(basis)s": "paragraaf %(num)s van %(parent)s afgeleid uit %(basis)s",
    "subsection %(num)s of %(parent)s inferred from %(basis)s": "lid %(num)s van %(parent)s afgeleid uit %(basis)s",
    "item %(num)s of %(parent)s inferred from %(basis)s": "punt %(num)s van %(parent)s afgeleid uit %(basis)s",
    "subitem %(num)s of %(parent)s inferred from %(basis)s": "subpunt %(num)s van %(parent)s afgeleid uit %(basis)s",
    "list number %(number)s.": "lijstnummer %(number)s.",
    "list number %(number)s. indented %(levels)s level(s)": "lijstnummer %(number)s., %(levels)s niveau(s) ingesprongen",
    "the second list number in %(quote)s": "het tweede lijstnummer in %(quote)s",
    "the order of the headings (the source has no letters)": "de volgorde van de kopjes (de bron heeft geen letters)",
    "paragraph %(k)s of %(n)s standing together under the section heading":
        "alinea %(k)s van %(n)s die samen onder het kopje van de paragraaf staan",
    "confirmed by %(evidence)s": "bevestigd door %(evidence)s",
    "no citation in the sources confirms it": "geen verwijzing in de bronnen bevestigt het",
    "%(quote)s read as the heading of section %(letter)s, followed by subsection %(sub)s":
        "%(quote)s gelezen als het kopje van paragraaf %(letter)s, gevolgd door lid %(sub)s",
    "the heading %(quote)s of %(cite)s split from its text at %(start)s… by %(why)s":
        "het kopje %(quote)s van %(cite)s van zijn tekst gescheiden bij %(start)s… op grond van %(why)s",
    "its line breaks: it stands alone on its line(s), the text after it starts a line":
        "de regeleinden: het staat alleen op zijn regel(s), de tekst erna begint een nieuwe regel",
    "%(chain)s created to hold %(new)s, by %(at)s (basis: %(ground)s)":
        "%(chain)s aangemaakt om %(new)s te bevatten, door %(at)s (grond: %(ground)s)",
    "capitalisation variant in %(node)s: %(change)s (%(here)s / %(there)s)":
        "hoofdlettervariant in %(node)s: %(change)s (%(here)s / %(there)s)",
    "kept the first reading, which starts its sentences with a capital":
        "de eerste lezing gekozen, die haar zinnen met een hoofdletter begint",
    "kept the second reading, which starts its sentences with a capital":
        "de tweede lezing gekozen, die haar zinnen met een hoofdletter begint",
    "punctuation or spacing variant in %(node)s: %(change)s (%(here)s / %(there)s)":
        "variant in leestekens of spaties in %(node)s: %(change)s (%(here)s / %(there)s)",
    "kept the first reading": "de eerste lezing gekozen",
    "the title of %(node)s is in none of the sources": "de titel van %(node)s staat in geen van de bronnen",
    "%(node)s has only its heading: its text is in none of the sources":
        "van %(node)s is er alleen het kopje: de tekst staat in geen van de bronnen",
    "%(node)s: the text that leads in to %(child)s (%(quote)s) is in none of the sources":
        "%(node)s: de tekst die %(child)s inleidt (%(quote)s) staat in geen van de bronnen",
    "article %(num)s is cut off at the end of %(place)s: the rest is on a page that is not in the sources":
        "artikel %(num)s breekt af aan het eind van %(place)s: de rest staat op een bladzijde die niet in de "
        "bronnen zit",
    "page %(page)s": "bladzijde %(page)s",
    "the extraction": "de tekstextractie",
    "page number %(num)s": "paginanummer %(num)s",
    "page title %(quote)s: page context, not law text": "paginatitel %(quote)s: omgeving van de pagina, geen wettekst",
    "template name %(quote)s: page context, not law text": "sjabloonnaam %(quote)s: omgeving van de pagina, geen wettekst",
    "running header %(quote)s: page layout, not law text": "kopregel %(quote)s: opmaak van de pagina, geen wettekst",
    "%(node)s begins a second time at line %(line)s (first at line %(first)s), but numbering does not go back "
    "inside one article: the text from here on is probably another article's, whose heading line was not "
    "recognised, and is set aside":
        "%(node)s begint een tweede keer op regel %(line)s (de eerste keer op regel %(first)s), maar binnen één "
        "artikel gaat de nummering niet terug: de tekst vanaf hier is waarschijnlijk die van een ander artikel, "
        "waarvan de kopregel niet werd herkend, en is terzijde gelegd",
    "%(node)s at line %(line)s comes after %(other)s (line %(first)s), but numbering does not go back inside one "
    "article: the text from here on is probably another article's, whose heading line was not recognised, and "
    "is set aside":
        "%(node)s op regel %(line)s komt na %(other)s (regel %(first)s), maar binnen één artikel gaat de nummering "
        "niet terug: de tekst vanaf hier is waarschijnlijk die van een ander artikel, waarvan de kopregel niet "
        "werd herkend, en is terzijde gelegd",
    "check the lines above for a damaged article heading": "kijk in de regels erboven of een artikelkop beschadigd is",
    "%(node)s reads differently in %(here)s and %(there)s: %(change)s":
        "%(node)s luidt anders in %(here)s dan in %(there)s: %(change)s",
    "the first reading is kept until a source is corrected":
        "de eerste lezing wordt aangehouden tot een bron is verbeterd",
    "the sources folder does not exist": "de map met de bronnen bestaat niet",
    "renumber %(old)s to %(new)s": "%(old)s vernummeren tot %(new)s",
    "%(old)s renumbered": "%(old)s vernummerd",
    "made by renumbering %(list)s": "ontstaan door vernummering van %(list)s",
    "replace %(words)s by %(by)s": "%(words)s vervangen door %(by)s",
    # lawbook serve --watch: the panel over a page when an edit did not build (pipeline/serve.py, panel_lines)
    "This change did not build: the site still shows the last build that did.":
        "Deze wijziging bouwt niet: de site toont nog de laatste build die wel lukte.",
    "%(origin)s (%(file)s)": "%(origin)s (%(file)s)",
    "%(source)s, line %(line)s": "%(source)s, regel %(line)s",
    "Where: %(place)s": "Waar: %(place)s",
    "What failed: %(message)s": "Wat misging: %(message)s",
    "What to do: correct the source at this line and save it; the whole report of the failed build is "
    "%(report)s.":
        "Wat te doen: verbeter de bron op die regel en sla haar op; het hele verslag van de mislukte build staat "
        "in %(report)s.",
    "What to do: %(fix)s": "Wat te doen: %(fix)s",
    "The report holds %(count)s more errors.": "Het verslag noemt nog %(count)s fouten.",
    "Once the source builds, this page reloads with the new build by itself.":
        "Zodra de bron weer bouwt, laadt deze pagina vanzelf opnieuw met de nieuwe build.",
}

# Abbreviations that end in a full stop without ending the sentence ("art. 58", "bijv. Noord"):
# the diff's sentence splitting (outputs/diff/words.py).
ABBREVIATIONS = {"art", "artt", "blz", "bijv", "bv", "nr", "nrs", "resp", "enz", "etc", "jl", "vgl", "zgn", "dhr",
                 "mevr", "mr", "dr", "st", "a", "o", "d", "w", "z", "m", "i", "e", "t"}
