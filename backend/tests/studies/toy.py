"""A small study with two experiments over geo-ideal (TCP only, so that it
runs on any host the tests run on), written where a test wants it."""

import shutil
from pathlib import Path

from tests.conftest import LABS

STUDY_YAML = """\
title: Toy
citation: Nobody. "Two experiments." 2026.
summary: One flow against its size; two flows side by side.
scenario: geo-ideal
axes:
  cc:
    field: flows.0
    levels:
      cubic: {transport: tcp, cc: cubic, hystart: false, size_bytes: 1000000}
      bbr: {transport: tcp, cc: bbr, size_bytes: 1000000}
      reno: {transport: tcp, cc: reno, size_bytes: 1000000}
  size:
    field: flows.0.size_bytes
    levels: {1 MB: 1000000, 3 MB: 3000000}
  second:
    field: flows.1
    levels:
      cubic: {transport: tcp, cc: cubic, hystart: false, size_bytes: 2000000}
      reno: {transport: tcp, cc: reno, size_bytes: 2000000}
experiments:
  single:
    title: One flow against its size
    axes: {cc: all, size: all}
    quick:
      only: {cc: [cubic], size: [1 MB]}
  pair:
    title: Two flows, the second a second later
    axes: {cc: [cubic, bbr], second: all}
    set: {flows.1.start_s: 1}
    quick:
      only: {cc: [bbr], second: [reno]}
      set: {flows.1.size_bytes: 500000}
iterations: 3
parallel: 2
bands:
  - where: {experiment: [pair]}
    within_percent: 10
    reason: Two flows share the link.
  - within_percent: 5
    reason: The ideal path.
check_defaults: {size: 1 MB}
checks:
  - id: bigger-takes-longer
    statement: Three times the bytes take at least twice the time.
    numerator: {experiment: single, size: 3 MB}
    denominator: {experiment: single}
    for_each: {cc: [cubic, bbr, reno]}
    at_least: 2
  - id: pairs-share
    statement: Two flows share fairly enough.
    metric: jain_index
    numerator: {experiment: pair}
    for_each: {cc: [cubic, bbr], second: [cubic, reno]}
    at_least: 0.7
"""

PUBLISHED_CSV = """\
experiment,cc,size,second,statistic,download_time_s,jain_index,source
single,cubic,1 MB,,median,1.5,,Table 1
single,bbr,3 MB,,median,3.0,,Table 1
pair,bbr,,reno,mean,,0.9,Figure 2
"""


def write_toy(root: Path) -> Path:
    """The toy study under root/studies/toy (root is its labs directory); its directory."""
    directory = root / "studies" / "toy"
    directory.mkdir(parents=True)
    (directory / "study.yaml").write_text(STUDY_YAML)
    (directory / "published.csv").write_text(PUBLISHED_CSV)
    shutil.copy(LABS / "geo-ideal.yaml", root / "geo-ideal.yaml")
    return directory
