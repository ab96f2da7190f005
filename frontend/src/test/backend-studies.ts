import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * backendStudyConfigurations asks the backend (its virtual environment, make venv) for each study's
 * configurations as GET api/studies/{id} gives them: the one computation of a study's matrix
 * (backend/satlab/studies/matrix.py), which the page counts runs from.
 */
export function backendStudyConfigurations(): Record<string, { configurations: unknown[]; quick_configurations: unknown[] }> {
  const python = fileURLToPath(new URL('../../../backend/.venv/bin/python', import.meta.url));
  const labs = fileURLToPath(new URL('../../../labs', import.meta.url));
  const script = [
    'import json, sys',
    'from pathlib import Path',
    'from satlab.studies import configurations, list_studies',
    'print(json.dumps({s.id: {"configurations": [c.to_dict() for c in configurations(s)],',
    '                         "quick_configurations": [c.to_dict() for c in configurations(s, quick=True)]}',
    '                  for s in list_studies(Path(sys.argv[1]))}))',
  ].join('\n');
  return JSON.parse(execFileSync(python, ['-c', script, labs], { encoding: 'utf8' }));
}
