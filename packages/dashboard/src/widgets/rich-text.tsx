/**
 * The changelog description editor: TipTap (StarterKit, which brings Link) with a toolbar of
 * labelled buttons (bold, italic, heading, lists, code, link) that keyboard users reach with Tab
 * or, inside the toolbar, the arrow keys. Only the changelog entry screen imports this file, so
 * TipTap and ProseMirror load with that screen's chunk and nowhere else. TipTap's injected
 * `<style>` is turned off (the page's CSP refuses inline styles); rich-text.css styles it.
 */
import { type Editor, EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Button } from '../ui.tsx';
import { NativeField } from './fields.tsx';
import './rich-text.css';

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

export function RichTextEditor({
  label,
  initialHtml,
  onChange,
  description,
}: {
  label: string;
  initialHtml: string;
  /** The editor's HTML ('' when empty), on every change. */
  onChange: (html: string) => void;
  description?: string;
}) {
  const labelId = useId();
  const helpId = useId();
  const editor = useEditor({
    injectCSS: false,
    shouldRerenderOnTransaction: true,
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        underline: false,
        // Without autolink the link mark ends where the link does (it is not inclusive).
        link: { openOnClick: false, autolink: false, defaultProtocol: 'https', protocols: ['mailto'] },
      }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(description ? { 'aria-describedby': helpId } : {}),
        class: 'rich-text-content',
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  return (
    <div className="field rich-text">
      <span id={labelId} className="rich-text-label">
        {label}
      </span>
      {editor ? <Toolbar editor={editor} label={label} /> : null}
      <EditorContent editor={editor} className="rich-text-area" />
      {description ? (
        <span id={helpId} className="field-help">
          {description}
        </span>
      ) : null}
    </div>
  );
}

function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const toolbar = useRef<HTMLDivElement>(null);
  const [linking, setLinking] = useState(false);

  // Arrow keys move between the toolbar's buttons (each is also a Tab stop).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const buttons = [...(toolbar.current?.querySelectorAll<HTMLButtonElement>('.toolbar-button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    event.preventDefault();
    const next = (index + (event.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  const chain = () => editor.chain().focus();
  return (
    <>
      <div ref={toolbar} role="toolbar" aria-label={`${label} formatting`} className="toolbar" onKeyDown={onKeyDown}>
        <Tool label="Bold" active={editor.isActive('bold')} onPress={() => chain().toggleBold().run()}>
          <strong>B</strong>
        </Tool>
        <Tool label="Italic" active={editor.isActive('italic')} onPress={() => chain().toggleItalic().run()}>
          <em>I</em>
        </Tool>
        <Tool
          label="Heading"
          active={editor.isActive('heading', { level: 2 })}
          onPress={() => chain().toggleHeading({ level: 2 }).run()}
        >
          H
        </Tool>
        <Tool
          label="Bulleted list"
          active={editor.isActive('bulletList')}
          onPress={() => chain().toggleBulletList().run()}
        >
          • List
        </Tool>
        <Tool
          label="Numbered list"
          active={editor.isActive('orderedList')}
          onPress={() => chain().toggleOrderedList().run()}
        >
          1. List
        </Tool>
        <Tool label="Code" active={editor.isActive('code')} onPress={() => chain().toggleCode().run()}>
          {'</>'}
        </Tool>
        <Tool label="Link" active={editor.isActive('link') || linking} onPress={() => setLinking(true)}>
          Link
        </Tool>
      </div>
      {linking ? <LinkForm editor={editor} onDone={() => setLinking(false)} /> : null}
    </>
  );
}

function Tool({
  label,
  active,
  onPress,
  children,
}: {
  label: string;
  active: boolean;
  onPress: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="toolbar-button"
      title={label}
      aria-pressed={active}
      // Keep the editor's selection: the button acts without taking focus from it on a click.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPress}
    >
      <span aria-hidden="true">{children}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );
}

/** The link of the selection: its address, applied to the selected text (or inserted as text). */
function LinkForm({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const current = (editor.getAttributes('link')['href'] as string | undefined) ?? '';
  const [href, setHref] = useState(current || 'https://');
  const [error, setError] = useState<string | undefined>(undefined);
  const apply = () => {
    const url = href.trim();
    if (!SAFE_URL.test(url) || url === 'https://' || url === 'http://') {
      setError('Enter an address starting with https://, http:// or mailto:');
      return;
    }
    if (editor.state.selection.empty && !editor.isActive('link')) {
      editor
        .chain()
        .focus()
        .insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] })
        .run();
    } else {
      editor.chain().focus().extendMarkRange('link').setLink({ href: url }).run();
    }
    onDone();
  };
  return (
    <div className="link-form row">
      <NativeField label="Link address" error={error}>
        {(control) => (
          <input
            {...control}
            type="url"
            value={href}
            // biome-ignore lint/a11y/noAutofocus: the form opens on the Link button's press, to type the address
            autoFocus
            onChange={(event) => {
              setHref(event.target.value);
              setError(undefined);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                apply();
              }
              if (event.key === 'Escape') {
                event.preventDefault();
                editor.commands.focus();
                onDone();
              }
            }}
          />
        )}
      </NativeField>
      <Button variant="secondary" onPress={apply}>
        Apply link
      </Button>
      {current ? (
        <Button
          variant="quiet"
          onPress={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            onDone();
          }}
        >
          Remove link
        </Button>
      ) : null}
      <Button
        variant="quiet"
        onPress={() => {
          editor.commands.focus();
          onDone();
        }}
      >
        Cancel
      </Button>
    </div>
  );
}
