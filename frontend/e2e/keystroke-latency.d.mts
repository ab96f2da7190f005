export function watchKeystrokes(): void;
export function keystrokeLatencies(): number[];
