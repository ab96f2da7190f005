"""Published studies as recipes satlab runs and reports on (labs/studies/)."""

from satlab.studies.report import format_markdown, format_report, make_report, report_csv
from satlab.studies.spec import Study, find_study, list_studies, load_study

__all__ = ["Study", "find_study", "format_markdown", "format_report", "list_studies", "load_study", "make_report",
           "report_csv"]
