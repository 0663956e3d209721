// Typing over a selection, applied by the editor rather than by the browser. Chromium replacing a
// selection that starts inside a highlighted token keeps the token's colour for the typed text by
// wrapping it in <span style="color: …">: a style attribute, which the page's Content-Security-Policy
// refuses (and reports) since it allows no inline style. CodeMirror would redraw the line anyway; here the
// browser's edit is cancelled and the same input goes through CodeMirror's own input handlers (closing
// brackets, completion) and its selection replacement, so the DOM is only ever written by CodeMirror.
import { EditorView } from '@codemirror/view';

export const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    const { selection } = view.state;
    // Composition (an input method) must stay the browser's; a cursor alone types into its text node.
    if (event.inputType !== 'insertText' || event.isComposing || view.composing || !event.data) return false;
    if (selection.ranges.every((range) => range.empty)) return false;
    event.preventDefault();
    const text = event.data;
    const { from, to } = selection.main;
    const insert = () => view.state.update(view.state.replaceSelection(text), { userEvent: 'input.type', scrollIntoView: true });
    const handled = view.state.facet(EditorView.inputHandler).some((handler) => handler(view, from, to, text, insert));
    if (!handled) view.dispatch(insert());
    return true;
  },
});
