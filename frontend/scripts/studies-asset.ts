import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvParse } from 'd3';
import { isMap, parseDocument } from 'yaml';
import { jsonAsset } from './json-asset';
import type { PublishedFigure, Statistic, StudyDetail, StudyList } from '../src/features/studies/api/types';

/**
 * The studies of labs/studies/<id>/ (study.yaml, published.csv, report.json) as the static site's
 * studies.json, in the shape GET api/studies/{id} gives them, so that the Studies page shows the
 * published figures and the report shipped with each recipe without a backend. The backend
 * validates recipes (satlab study list, its tests); this reads what the page shows.
 */

/** Where the static site's copy of the studies is, beside index.html. */
export const STUDIES_ASSET = 'studies.json';

/** The columns of published.csv that are not a metric; every other column holds a metric's value (its unit in its name). */
const figureColumns = new Set(['statistic', 'source']);

const oneLine = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

function readPublished(file: string, axes: string[]): PublishedFigure[] {
  if (!existsSync(file)) return [];
  return csvParse(readFileSync(file, 'utf8')).map((row, index) => {
    const metrics = Object.keys(row).filter((column) => !axes.includes(column) && !figureColumns.has(column) && row[column]);
    if (metrics.length !== 1) throw new Error(`${file} line ${index + 2}: give a value in exactly one metric column`);
    const [metric] = metrics;
    return {
      configuration: Object.fromEntries(axes.map((axis) => [axis, row[axis] ?? ''])),
      metric,
      statistic: row.statistic as Statistic,
      value: Number(row[metric]),
      source: row.source ?? '',
    };
  });
}

/** A study as studies.json ships it: GET api/studies/{id}'s shape, and the recipe's README.md (the page shows it, and links explanations into it). */
export type StudyAsset = StudyDetail & { readme: string | null };

/**
 * readStudy reads one recipe's directory; the defaults are StudySpec's (backend/satlab/studies/spec.py).
 * Its configurations are not here: the backend computes them (GET api/studies/{id}), and only a
 * page with the backend starts study runs.
 */
export function readStudy(directory: string, id: string): StudyAsset {
  const file = join(directory, 'study.yaml');
  const document = parseDocument(readFileSync(file, 'utf8'));
  if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
  const axesNode = document.get('axes');
  if (!isMap(axesNode)) throw new Error(`${file}: axes must be a mapping`);
  // Level names in the file's order: a plain object would put level names such as "1" and "5" first.
  const axes = Object.fromEntries(
    axesNode.items.map((axis) => {
      const levels = document.getIn(['axes', String(axis.key), 'levels']);
      if (!isMap(levels)) throw new Error(`${file}: axes.${String(axis.key)}.levels must be a mapping`);
      return [String(axis.key), levels.items.map((level) => String(level.key))];
    }),
  );
  const spec = document.toJS() as {
    title: string;
    citation: string;
    url?: string;
    summary: string;
    iterations?: number;
    parallel?: number;
    quick?: { only?: Record<string, string[]>; iterations?: number };
    experiments?: Record<string, { title: string; axes: Record<string, string[] | 'all'>; quick?: { only?: Record<string, string[]> } }>;
    metrics?: string[];
    checks?: { id: string; statement: string; metric?: string }[];
  };
  // Each experiment's axes with their levels ('all': every level of the axis).
  const experiments = Object.fromEntries(
    Object.entries(spec.experiments ?? {}).map(([name, experiment]) => [
      name,
      {
        title: experiment.title,
        axes: Object.fromEntries(Object.entries(experiment.axes).map(([axis, levels]) => [axis, levels === 'all' ? axes[axis] : levels])),
        quick: experiment.quick ? (experiment.quick.only ?? {}) : null,
      },
    ]),
  );
  const columns = Object.keys(experiments).length > 0 ? ['experiment', ...Object.keys(axes)] : Object.keys(axes);
  const published = readPublished(join(directory, 'published.csv'), columns);
  // The API gives them in METRICS' order (backend/satlab/studies/recipe.py); here, as the recipe names them.
  const metrics = [
    ...new Set([...(spec.metrics ?? []), ...published.map((figure) => figure.metric), ...(spec.checks ?? []).map((check) => check.metric ?? 'download_time_s')]),
  ];
  const reportFile = join(directory, 'report.json');
  const shippedReport = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : null;
  return {
    id,
    title: spec.title,
    citation: oneLine(spec.citation),
    url: spec.url ?? null,
    summary: oneLine(spec.summary),
    axes,
    iterations: spec.iterations ?? 10,
    parallel: spec.parallel ?? 4,
    quick: { only: spec.quick?.only ?? {}, iterations: spec.quick?.iterations ?? 1 },
    experiments,
    metrics,
    checks: (spec.checks ?? []).map((check) => ({ id: check.id, statement: oneLine(check.statement) })),
    published,
    has_shipped_report: shippedReport !== null,
    shipped_report: shippedReport,
    readme: existsSync(join(directory, 'README.md')) ? readFileSync(join(directory, 'README.md'), 'utf8') : null,
  };
}

/** readStudies reads every recipe under labsDir/studies, in the order of their ids (as the API lists them). */
export function readStudies(labsDir: string): StudyList<StudyAsset> {
  const root = join(labsDir, 'studies');
  const ids = existsSync(root) ? readdirSync(root).filter((id) => existsSync(join(root, id, 'study.yaml'))).sort() : [];
  const data = ids.map((id) => readStudy(join(root, id), id));
  return { data, count: data.length };
}

/** studiesAsset is the Vite plugin that writes studies.json into the build, and serves it in development. */
export const studiesAsset = (labsDir: string) =>
  jsonAsset('satlab-studies-asset', () => ({ [STUDIES_ASSET]: () => readStudies(labsDir) }));
