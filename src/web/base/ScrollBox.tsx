// A box that scrolls a wide table sideways on a narrow screen. It takes focus (a
// region with a name), so keyboard users can scroll it too (axe: scrollable-region-focusable).
import type { ComponentChildren } from 'preact';

export function ScrollBox(props: { label: string; class?: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class={props.class ?? 'table-scroll'} aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}
