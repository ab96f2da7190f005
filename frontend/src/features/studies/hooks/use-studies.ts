import { useEffect, useState } from 'react';
import { BackendMissingError, BackendUnreachableError } from '../../../shared/api';
import { getStaticStudies, getStudy, listStudies } from '../api/client';
import type { Study, StudyDetail, StudyReport } from '../api/types';

export type StudiesState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  /** The backend's studies: runs can start here. */
  | { status: 'ready'; backend: true; studies: Study[] }
  /** The static build's copy (studies.json), and why there is no backend. */
  | { status: 'ready'; backend: false; studies: StudyDetail[]; why: string };

/**
 * The API's failures that mean no backend here, rather than a backend that is wrong. A boolean,
 * not a type guard: the errors have Error's shape, so a guard would leave `never` for the rest.
 */
const noBackend = (error: Error): boolean =>
  error instanceof BackendMissingError || error instanceof BackendUnreachableError;

/**
 * useStudies asks the backend for its studies; where it does not answer (a static copy of the
 * site), reads the copy the build shipped, with each recipe's published figures and report.
 */
export function useStudies(): StudiesState {
  const [state, setState] = useState<StudiesState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    listStudies().then(
      (list) => current && setState({ status: 'ready', backend: true, studies: list.data }),
      (apiError: Error) =>
        noBackend(apiError)
          ? getStaticStudies().then(
              (list) => current && setState({ status: 'ready', backend: false, studies: list.data, why: apiError.message }),
              (error: Error) => current && setState({ status: 'failed', message: `The studies did not load: ${error.message}` }),
            )
          : current && setState({ status: 'failed', message: `The satlab backend answered with an error: ${apiError.message}` }),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}

export type ShippedReport = { status: 'loading' } | { status: 'ready'; report: StudyReport | null } | { status: 'failed'; message: string };

/** useShippedReport is the report shipped with a recipe: in the static copy already, else from the backend. */
export function useShippedReport(study: Study | StudyDetail): ShippedReport {
  // The static copy holds it; a study without one needs no request.
  const inHand = 'shipped_report' in study ? study.shipped_report : study.has_shipped_report ? undefined : null;
  const [fetched, setFetched] = useState<ShippedReport>({ status: 'loading' });
  useEffect(() => {
    if (inHand !== undefined) return;
    let current = true;
    getStudy(study.id).then(
      (detail) => current && setFetched({ status: 'ready', report: detail.shipped_report }),
      (error: Error) => current && setFetched({ status: 'failed', message: `The shipped report did not load: ${error.message}` }),
    );
    return () => {
      current = false;
    };
  }, [study.id, inHand]);
  return inHand !== undefined ? { status: 'ready', report: inHand } : fetched;
}
