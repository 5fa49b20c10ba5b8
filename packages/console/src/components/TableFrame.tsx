import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import classes from './TableFrame.module.css';

/**
 * Holds a table in its card. From 1200 px wide the table takes the card's width and its cells wrap,
 * so every column is in view on a laptop or desktop; narrower (tablets, phones) it keeps `minWidth`
 * and scrolls sideways, and then the frame is a named region the keyboard can scroll (WCAG 2.1.1).
 */
export function TableFrame({ label, minWidth = 640, children }: { label: string; minWidth?: number; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={frame}
      className={classes.frame}
      style={{ '--table-min-width': `${minWidth}px` } as CSSProperties}
      {...(scrolls ? { role: 'region', 'aria-label': `${label}, scrolls sideways`, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}
