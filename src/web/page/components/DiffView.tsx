/** A worktree session's diff: files, hunks, coloured lines; a tap on a line writes a comment there; the comments go back as one prompt. */
import { useState } from 'preact/hooks';
import type { CommentTarget } from '../../../core/board/diff-view.js';
import type { DiffFile, DiffLine } from '../../../core/worktree/diff-model.js';
import { usePage, usePageState } from '../page-context.js';

type Comment = CommentTarget & { text: string };
const SIGN: Record<DiffLine['kind'], string> = { add: '+', del: '-', ctx: ' ', note: '\\' };
const key = (t: CommentTarget) => `${t.file}:${t.line}`;

function CommentEditor({ onSave, onCancel }: { onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  return (
    <form
      class="comment-edit"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onSave(text);
      }}
    >
      <textarea rows={2} placeholder="a comment on this line…" value={text} onInput={(e) => setText(e.currentTarget.value)} ref={(el) => el?.focus()} />
      <button type="submit" class="primary" disabled={!text.trim()}>
        add
      </button>
      <button type="button" onClick={onCancel}>
        cancel
      </button>
    </form>
  );
}

function FileDiff({ f, comments, editing, setEditing, add, remove }: { f: DiffFile; comments: Comment[]; editing: string | null; setEditing: (k: string | null) => void; add: (c: Comment) => void; remove: (c: Comment) => void }) {
  return (
    <section class="diff-file">
      <h3>
        <span class="path">{f.oldPath ? `${f.oldPath} → ${f.path}` : f.path}</span> <span class="status">{f.status}</span> <span class="add">+{f.added}</span> <span class="del">-{f.removed}</span>
      </h3>
      {f.binary ? <div class="diff-info">binary file</div> : null}
      {f.modeChange ? <div class="diff-info">mode {f.modeChange}</div> : null}
      {f.hunks.map((h, hi) => (
        <div class="hunk" key={hi}>
          <div class="hunk-head">{h.header}</div>
          {h.lines.map((l, li) => {
            const t = { file: f.path, line: l.newAt };
            const k = key(t);
            const here = comments.filter((c) => key(c) === k);
            const last = h.lines[li + 1]?.newAt !== l.newAt;
            return (
              <div key={li}>
                <div class={`dl ${l.kind}`} onClick={() => setEditing(k)}>
                  <span class="no">{l.newNo ?? l.oldNo ?? ''}</span>
                  <span class="code">
                    {SIGN[l.kind]}
                    {l.text}
                  </span>
                </div>
                {last
                  ? here.map((c, ci) => (
                      <div class="comment" key={ci}>
                        {c.text}{' '}
                        <button type="button" class="link" onClick={() => remove(c)}>
                          remove
                        </button>
                      </div>
                    ))
                  : null}
                {last && editing === k ? <CommentEditor onCancel={() => setEditing(null)} onSave={(text) => (add({ ...t, text }), setEditing(null))} /> : null}
              </div>
            );
          })}
        </div>
      ))}
    </section>
  );
}

export function DiffView({ id }: { id: string }) {
  const { model, nav } = usePage();
  const s = usePageState();
  const [comments, setComments] = useState<Comment[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const row = s.rows.find((r) => r.id === id);
  const diff = s.diff?.id === id ? s.diff.model : null;
  const readOnly = s.welcome?.readOnly ?? true;
  return (
    <div class="diff-view">
      <header class="view-head">
        <button type="button" class="back" onClick={() => nav({ view: 'session', id })} title="back to the session">
          ‹
        </button>
        <span class="title">diff · {row?.name ?? id}</span>
        {diff ? (
          <span class="counts">
            <span class="add">+{diff.added}</span> <span class="del">-{diff.removed}</span>
          </span>
        ) : null}
        <span class="spacer" />
        <button type="button" onClick={() => model.refreshDiff(id)}>
          refresh
        </button>
      </header>
      <div class="diff-body">
        {!diff ? <p class="empty">Loading the diff…</p> : diff.files.length === 0 ? <p class="empty">No changes.</p> : null}
        {diff?.files.map((f) => (
          <FileDiff key={f.path} f={f} comments={comments} editing={editing} setEditing={setEditing} add={(c) => setComments([...comments, c])} remove={(c) => setComments(comments.filter((x) => x !== c))} />
        ))}
      </div>
      {comments.length > 0 ? (
        <footer class="diff-foot">
          <span>
            {comments.length} comment{comments.length === 1 ? '' : 's'}
          </span>
          <button
            type="button"
            class="primary"
            disabled={readOnly}
            onClick={() => {
              if (model.sendComments(id, comments) !== null) setComments([]);
            }}
          >
            send comments
          </button>
        </footer>
      ) : null}
    </div>
  );
}
