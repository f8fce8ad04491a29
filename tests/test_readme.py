"""The README is the quick start: short, its first lines the two commands, every link to a file that exists."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_the_readme_is_a_quick_start_of_at_most_120_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120
    assert lines[0] == "# lawbook"
    assert lines[2].split("#")[0].strip() == "make" and lines[3].split("#")[0].strip() == "make test"


def test_every_link_of_the_readme_and_the_guide_is_to_a_file_of_the_project() -> None:
    for page in (README, ROOT / "docs" / "guide.md", ROOT / "docs" / "decisions.md"):
        links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
        local = [link for link in links if not re.match(r"[a-z]+:", link)]
        assert local, page
        missing = [link for link in local if not (page.parent / link).exists()]
        assert missing == [], page


def test_the_readme_names_the_commands_a_newcomer_meets() -> None:
    text = README.read_text(encoding="utf-8")
    for said in ("no contents list to check them against", "references point outside the corpus", "HTTPS",
                 "sudo apt-get install", ".cache/lawbook"):
        assert said in text
