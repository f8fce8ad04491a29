"""The templates' compiled code kept between processes (outputs/text.template_cache): used only from the
user's own folder, kept apart per environment (tests/test_golden.py: the pages the same with it)."""
import os

import jinja2

from pipeline.outputs import text


def test_compiled_templates_are_kept_and_give_the_same_page(tmp_path):
    (tmp_path / "page.html").write_text("{% for x in xs %}<b>{{ x }}</b>\n{% endfor %}", encoding="utf-8")
    module = tmp_path / "maker.py"
    module.write_text("# options A\n", encoding="utf-8")

    def render():
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), autoescape=True,
                                 trim_blocks=True, bytecode_cache=text.template_cache(module, tmp_path))
        return env.get_template("page.html").render(xs=["<1>", "2"])
    assert render() == "<b>&lt;1&gt;</b>\n<b>2</b>\n"
    [folder] = (tmp_path / "__pycache__").iterdir()
    assert folder.name.startswith("jinja2-") and len(list(folder.glob("*.cache"))) == 1
    assert render() == "<b>&lt;1&gt;</b>\n<b>2</b>\n"  # now from the kept code
    # Another environment's module (other options): a folder of its own, never the first one's code.
    module.write_text("# options B\n", encoding="utf-8")
    render()
    assert len(list((tmp_path / "__pycache__").iterdir())) == 2


def test_a_cache_folder_others_can_write_is_not_used(tmp_path):
    module = tmp_path / "maker.py"
    module.write_text("", encoding="utf-8")
    assert text.template_cache(module, tmp_path) is not None
    os.chmod(tmp_path / "__pycache__", 0o777)
    assert text.template_cache(module, tmp_path) is None


def test_an_unwritable_templates_folder_builds_without_the_cache(tmp_path):
    module = tmp_path / "maker.py"
    module.write_text("", encoding="utf-8")
    (tmp_path / "__pycache__").write_text("not a folder", encoding="utf-8")
    assert text.template_cache(module, tmp_path) is None

