"""Published studies as recipes satlab runs and reports on (labs/studies/).

    spec.py       the recipe (study.yaml): axes, experiments, bands, checks
    metrics.py    what a study compares, taken from a run's result
    published.py  the published figures (published.csv)
    study.py      a loaded study: its columns, levels and configurations' names
    catalog.py    loading, listing and finding the studies
    matrix.py     a study run's configurations and its campaign
    compare.py    any campaign's configurations side by side, with the metrics
    spread.py     median, quartiles and range of values, censored ones too
    report.py     satlab's figures beside the published ones, and the checks
    report_format.py  a report as text, Markdown and CSV
    fidelity.py   what a report says of its runs' fidelity, and which study runs it takes
"""

from satlab.studies.catalog import find_study, list_studies, load_study
from satlab.studies.compare import compare_campaign, comparison_json, comparison_markdown, comparison_text
from satlab.studies.fidelity import PREFER_CHOICES, Prefer
from satlab.studies.matrix import StudyConfiguration, campaign, configurations
from satlab.studies.metrics import METRICS
from satlab.studies.report import make_report
from satlab.studies.report_format import format_markdown, format_report, report_csv
from satlab.studies.study import Study

__all__ = ["METRICS", "PREFER_CHOICES", "Prefer", "Study", "StudyConfiguration", "campaign", "compare_campaign",
           "comparison_json", "comparison_markdown", "comparison_text", "configurations", "find_study",
           "format_markdown", "format_report", "list_studies", "load_study", "make_report", "report_csv"]
