// A prompt before leaving a form with unsaved edits (issue 34): in-app navigation asks
// through the router (a confirm dialog), closing or reloading the tab through the
// browser's own `beforeunload` prompt. Nothing is asked when nothing was edited or once
// the edits are saved.
import { useEffect, useRef } from 'preact/hooks';
import { addLeaveGuard } from '../router';

/**
 * Guards the page while `unsaved`; the returned function marks the edits saved at once
 * (before the next render), for a save that navigates right away.
 */
export function useUnsavedEdits(unsaved: boolean): () => void {
  const state = useRef(unsaved);
  state.current = unsaved;
  useEffect(() => addLeaveGuard(() => state.current), []);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (!state.current) return;
      e.preventDefault();
      e.returnValue = ''; // older browsers need it set to prompt
    };
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [unsaved]);
  return () => {
    state.current = false;
  };
}
