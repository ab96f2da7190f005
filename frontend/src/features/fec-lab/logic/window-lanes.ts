/**
 * windowLanes puts each repair's window on the first lane free from its first source to the end
 * of its label, so that the lanes are as many as windows overlap, not as many as repairs: the
 * time line stays as tall for a long run as for a short one.
 */
export function windowLanes(extents: { start: number; end: number }[]): number[] {
  const laneEnds: number[] = [];
  return extents.map(({ start, end }) => {
    let lane = laneEnds.findIndex((laneEnd) => laneEnd < start);
    if (lane < 0) lane = laneEnds.push(end) - 1;
    laneEnds[lane] = end;
    return lane;
  });
}
