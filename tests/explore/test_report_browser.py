"""report.html in a real headless browser (Debian's chromium and
chromium-driver, driven by selenium): the page loads without console
errors, each Pareto plot holds one mark per point, and clicking a mark
selects and shows that point's row. Skipped where chromium is not
installed (scripts/setup.sh installs it)."""
import csv
import shutil

import pytest

from tcu_tools.explore import cli, fast, params

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="chromium and chromium-driver not installed")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    try:
        fast.tcu_module()
    except params.UsageError as error:
        pytest.skip(str(error))
    out = tmp_path_factory.mktemp("report")
    code = cli.main(["--axis", "Int4MacsPerCycle=32,64,128,256,512,1024", "--axis",
                     "WordsPerCycle=4,16,64", "--set", "E2m1Enable=0",
                     "--set", "F16Enable=0", "--set", "F64Enable=0", "--ptx",
                     "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "--m", "512", "--n",
                     "512", "--k", "512", "--out", str(out)])
    assert code == 0
    rows = list(csv.DictReader(open(out / "explore.csv")))
    return out / "report.html", rows


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def test_page_loads_without_console_errors(report, browser):
    browser.get(report[0].as_uri())
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
    assert browser.execute_script("return typeof Plotly") == "object"


def test_one_mark_per_point(report, browser):
    path, rows = report
    browser.get(path.as_uri())
    assert len(rows) == 18
    for plot in ("plot0", "plot1"):
        marks = browser.find_elements("css selector", f"#{plot} .scatterlayer .point")
        assert len(marks) == len(rows)
        shown = browser.execute_script(f"return document.getElementById('{plot}').data[0]"
                                       ".customdata")
        assert sorted(shown) == sorted(int(r["point"]) for r in rows)
    assert len(browser.find_elements("css selector", "#point-table tbody tr")) == len(rows)


def test_clicking_a_mark_selects_its_row(report, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    path, rows = report
    browser.get(path.as_uri())
    data = browser.execute_script("const d = document.getElementById('plot0').data[0];"
                                  "return [d.customdata, d.x, d.y]")
    marks = browser.find_elements("css selector", "#plot0 .scatterlayer .point")
    centres = browser.execute_script(
        "return arguments[0].map((m) => { const r = m.getBoundingClientRect();"
        "return [r.x + r.width / 2, r.y + r.height / 2]; })", marks)
    # Marks no other mark overlaps (12 px apart): a click there is theirs.
    alone = [i for i, (x, y) in enumerate(centres)
             if all(abs(x - x2) > 12 or abs(y - y2) > 12
                    for j, (x2, y2) in enumerate(centres) if j != i)]
    assert len(alone) >= 2
    for index in alone:
        browser.execute_script("window.scrollTo(0, 0)")
        ActionChains(browser).move_to_element(marks[index]).click().perform()
        selected = browser.find_elements("css selector", "#point-table tr.selected")
        assert len(selected) == 1
        row = selected[0]
        assert row.get_attribute("id") == f"point-{data[0][index]}"
        assert row.find_element("css selector", "td").text == str(data[0][index])
        assert row.is_displayed()


def test_sorting_a_column(report, browser):
    browser.get(report[0].as_uri())
    header = [h for h in browser.find_elements("css selector", "#point-table th")
              if h.text == "cycles"][0]
    header.click()
    cells = browser.execute_script(
        "const i = COLUMNS.indexOf('cycles');"
        "return [...document.querySelectorAll('#point-table tbody tr')]"
        ".map((tr) => Number(tr.children[i].textContent))")
    assert cells == sorted(cells)
    header.click()
    cells2 = browser.execute_script(
        "const i = COLUMNS.indexOf('cycles');"
        "return [...document.querySelectorAll('#point-table tbody tr')]"
        ".map((tr) => Number(tr.children[i].textContent))")
    assert cells2 == sorted(cells, reverse=True)
