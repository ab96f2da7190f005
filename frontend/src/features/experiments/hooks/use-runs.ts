import { useCallback, useState } from 'react';
import { listRuns } from '../../../shared/runs';
import { useLiveList } from './use-live-list';

const runChanged = (event: { type: string }) => event.type !== 'sample';

/**
 * useRuns pages through the stored runs, newest first, and refreshes the page whenever any run
 * changes state or ends (WS api/events), so that runs started by others in the class show up too.
 */
export function useRuns(pageSize: number) {
  const [page, setPage] = useState(0);
  const load = useCallback(() => listRuns(pageSize, page * pageSize), [page, pageSize]);
  const { list, error, refresh } = useLiveList(load, 'runs', runChanged);
  return { list, error, page, setPage, refresh, pageSize };
}
