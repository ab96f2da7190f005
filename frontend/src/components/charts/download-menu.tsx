import { type KeyboardEvent, type MouseEvent, useEffect, useId, useRef, useState } from 'react';

export interface DownloadMenuItem {
  /** The item's name: "SVG". */
  label: string;
  /** A file at an address: the item is a link that downloads it (<a download>). */
  href?: string;
  /** Called when the item is picked; for a link, before the browser follows it (preventDefault stops it). */
  onSelect?: (event: MouseEvent) => void;
}

export interface DownloadMenuProps {
  /** What the files are of, for the button's accessible name: "Download: Goodput per flow". */
  what: string;
  items: DownloadMenuItem[];
  /** While a file is being made: the button is marked busy. */
  busy?: boolean;
  /** Which edge of the button the open menu lines up with: its end (a chart's top right corner) or its start. */
  align?: 'start' | 'end';
}

const entriesOf = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

/**
 * DownloadMenu is a menu button (WAI-ARIA's pattern): "Download" opens a menu of formats, focused
 * on the first; ↑ ↓ Home End move, Enter or a click picks one, Escape closes it and returns to the
 * button, and leaving it (Tab, a click elsewhere) closes it.
 */
export function DownloadMenu({ what, items, busy = false, align = 'end' }: DownloadMenuProps) {
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const focusEntry = (index: number) => {
    const all = entriesOf(menu.current);
    all[(index + all.length) % all.length]?.focus();
  };
  // The entry to focus once the menu is in the page: the first, or the last (opened with ↑).
  const entryOnOpen = useRef(0);
  const openAt = (index: number) => {
    entryOnOpen.current = index;
    setOpen(true);
  };
  useEffect(() => {
    if (!open) return;
    entriesOf(menu.current).at(entryOnOpen.current)?.focus();
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 0 : -1);
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const current = entriesOf(menu.current).indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: -1 };
    if (event.key in moves) {
      event.preventDefault();
      focusEntry(moves[event.key]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };
  return (
    <div
      className={`download-menu align-${align}`}
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-label={`Download: ${what}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-busy={busy}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKey}
      >
        Download
      </button>
      {/* Hidden rather than removed when closed: a link removed while it is clicked downloads nothing. */}
      <ul id={menuId} ref={menu} role="menu" aria-label={`Download ${what} as`} hidden={!open} onKeyDown={onMenuKey}>
        {items.map((item) => (
          <li key={item.label} role="none">
            {item.href ? (
              <a
                role="menuitem"
                tabIndex={-1}
                href={item.href}
                download=""
                onClick={(event) => {
                  item.onSelect?.(event);
                  close(true);
                }}
              >
                {item.label}
              </a>
            ) : (
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={(event) => {
                  close(true);
                  item.onSelect?.(event);
                }}
              >
                {item.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
