// CodeMirror 6 in a Preact component. The editor is given the page's CSP nonce (EditorView.cspNonce), so
// the styles it injects are allowed by the strict policy; without them the content loses
// `white-space: pre` and typed spaces arrive as non-breaking spaces. Typing over a selection is applied
// by the editor, not the browser, which would write a style attribute the policy refuses.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { lintGutter } from '@codemirror/lint';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import { pageNonce } from '../nonce';
import { typeOverSelection } from './type-over-selection';

/**
 * Replaces the editor's text (reopening a run, loading a file). The editor owns its text: `value` is
 * only the first one, since pushing every render's value back in races fast typing (a render still
 * carrying the previous keystroke's text would undo the next one, and the two would loop).
 */
export function setDoc(view: EditorView | undefined, text: string): void {
  if (view && view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

interface Props {
  label: string;
  /** The initial text. */
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun?: () => void;
  /** Language, completion, lint: may change while the editor lives. */
  extensions?: Extension[];
  placeholder?: string;
  /** Receives the view, for callers that move the cursor (an error's position). */
  onView?: (view: EditorView | undefined) => void;
}

export function CodeEditor({ label, value, onChange, onRun, extensions = [], placeholder, onView }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>();
  const dynamic = useRef(new Compartment());
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };

  useEffect(() => {
    const nonce = pageNonce();
    const run = () => {
      latest.current.onRun?.();
      return true;
    };
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          ...(nonce ? [EditorView.cspNonce.of(nonce)] : []),
          typeOverSelection,
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          closeBrackets(),
          autocompletion(),
          lintGutter(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([{ key: 'Mod-Enter', run, preventDefault: true }, ...closeBracketsKeymap, ...completionKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
          // tabindex: the editable text is focusable anyway; saying so lets assistive checks see that the
          // scrolling area around it is reached by keyboard.
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true', tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          dynamic.current.of(extensions),
        ],
      }),
    });
    view.current = editor;
    onView?.(editor);
    return () => {
      onView?.(undefined);
      editor.destroy();
    };
    // The editor is created once; extensions are pushed in by the effect below, text by setDoc.
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: dynamic.current.reconfigure(extensions) });
  }, [extensions]);

  return <div class="code-editor" ref={host} />;
}
