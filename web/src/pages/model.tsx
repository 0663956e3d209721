// The model: deployments, the live nodes and reveals, and a CML editor per project file that validates
// as you type (diagnostics underlined at their line and column) and deploys the project.
import { useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, get, post, query } from '../api';
import { CodeEditor } from '../components/code-editor';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { Section, SelectField, TextField } from '../components/field';
import { useLoad } from '../components/use-load';
import { LoadMore, usePaged } from '../components/use-paged';
import { atLeast, type Me } from '../session';
import { cmlLinter, type CmlDiagnostic, type CmlFile } from './cml-lint';

interface Project { project: string; files: CmlFile[] }
interface Deployment { id: string; project: string; deployed_at: string; deployed_by: string; changed_nodes: string[]; pr_url: string | null }
interface NodeItem { id: string; label: string; description: string; tags: string[] }
interface Reveal { name: string; domain: string; description: string; metrics: string[] }

function Diagnostics({ result }: { result: CmlDiagnostic[] | Error | undefined }) {
  if (!result) return null;
  if (result instanceof Error) return <ErrorBox error={result} />;
  if (result.length === 0) return <p role="status" class="status ok">The project is valid.</p>;
  return (
    <ul aria-label="Diagnostics" class="diagnostics">
      {result.map((d, i) => (
        <li key={i} class={d.severity === 'error' ? 'status failed' : 'muted'}>
          {d.file}:{d.line}:{d.column} {d.severity} {d.code}: {d.message}
        </li>
      ))}
    </ul>
  );
}

interface Selection { project: string; file: string }

interface WorkbenchProps {
  projects: Project[];
  selection: Selection;
  onSelect: (selection: Selection) => void;
  canDeploy: boolean;
  onDeployed: () => void;
}

function CmlWorkbench({ projects, selection, onSelect, canDeploy, onDeployed }: WorkbenchProps) {
  const projectName = selection.project || projects[0]?.project || '';
  const project = projects.find((p) => p.project === projectName);
  const filePath = selection.file || project?.files[0]?.path || '';
  const setFilePath = (file: string) => onSelect({ project: projectName, file });
  const edits = useRef(new Map<string, string>());
  const [result, setResult] = useState<CmlDiagnostic[] | Error>();
  const [message, setMessage] = useState('');
  const [deployError, setDeployError] = useState<unknown>();
  const [notice, setNotice] = useState('');

  const filesNow = (): CmlFile[] => (project?.files ?? []).map((f) => ({ path: f.path, content: edits.current.get(`${projectName}/${f.path}`) ?? f.content }));
  const extensions = useMemo(() => [cmlLinter(projectName, filePath, filesNow, setResult)], [projectName, filePath]);
  const file = project?.files.find((f) => f.path === filePath);

  const deploy = async () => {
    setDeployError(undefined);
    setNotice('');
    try {
      const answer = await post<{ deployment: { id: string; changed_nodes: string[] } }>('/api/model/deploy', { project: projectName, files: filesNow(), ...(message ? { message } : {}) });
      setNotice(`Deployed: ${answer.deployment.changed_nodes.length ? `changed ${answer.deployment.changed_nodes.join(', ')}` : 'no node changed'}.`);
      onDeployed();
    } catch (e) {
      setDeployError(e);
      // A refused deploy (422) lists what is wrong, in every file: shown as the validation list.
      if (e instanceof ApiError && Array.isArray(e.body.diagnostics)) setResult(e.body.diagnostics as CmlDiagnostic[]);
    }
  };

  if (!project) return <p class="muted">No project is deployed yet.</p>;
  return (
    <div>
      <div class="row">
        <SelectField label="Project" value={projectName} options={projects.map((p) => p.project)} onChange={(v) => onSelect({ project: v, file: projects.find((p) => p.project === v)?.files[0]?.path ?? '' })} />
        <SelectField label="File" value={filePath} options={project.files.map((f) => f.path)} onChange={setFilePath} />
      </div>
      {file ? (
        <CodeEditor key={`${projectName}/${filePath}`} label="CML" value={edits.current.get(`${projectName}/${filePath}`) ?? file.content}
          onChange={(text) => {
            edits.current.set(`${projectName}/${filePath}`, text);
            // A deploy's refusal or notice was about the text before this edit: the list below, validated
            // as you type, now says what is wrong.
            setDeployError(undefined);
            setNotice('');
          }} extensions={extensions} />
      ) : null}
      <Diagnostics result={result} />
      {canDeploy ? (
        <div class="row">
          <TextField label="Deploy message" value={message} onInput={setMessage} />
          <button type="button" class="primary" onClick={deploy}>Deploy project</button>
        </div>
      ) : <p class="muted">Deploying needs the editor role.</p>}
      <ErrorBox error={deployError} />
      {notice ? <Notice>{notice}</Notice> : null}
    </div>
  );
}

export function ModelPage({ me }: { me: Me }) {
  const [selection, setSelection] = useState<Selection>({ project: '', file: '' });
  const [openError, setOpenError] = useState<unknown>();
  // A node's CML: its project and file, from the live model.
  const openNode = async (id: string) => {
    try {
      setOpenError(undefined);
      const { node } = await get<{ node: { project: string | null; file: string } }>(`/api/nodes/${encodeURIComponent(id)}`);
      if (node.project) setSelection({ project: node.project, file: node.file });
      document.getElementById('cml-editor')?.scrollIntoView();
    } catch (e) {
      setOpenError(e);
    }
  };
  const projects = useLoad(() => get<{ projects: Project[] }>('/api/model/projects'));
  const deployments = usePaged<Deployment>(`/api/model/deployments${query({ limit: 20 })}`, 'deployments');
  const nodes = useLoad(() => get<{ nodes: NodeItem[] }>('/api/nodes'));
  const reveals = useLoad(() => get<{ reveals: Reveal[] }>('/api/reveals'));
  return (
    <div>
      <h1>Model</h1>
      <div id="cml-editor" />
      <Section title="CML editor">
        {projects.loading && !projects.data ? <Loading what="projects" /> : null}
        <ErrorBox error={projects.error} />
        {projects.data ? <CmlWorkbench projects={projects.data.projects} selection={selection} onSelect={setSelection} canDeploy={atLeast(me, 'editor')} onDeployed={() => { deployments.reload(); nodes.reload(); }} /> : null}
      </Section>
      <Section title="Nodes">
        <ErrorBox error={nodes.error ?? openError} />
        <ul>
          {(nodes.data?.nodes ?? []).map((n) => (
            <li key={n.id}>
              <button type="button" onClick={() => openNode(n.id)} aria-label={`Open the CML of ${n.label}`}>CML</button> <strong>{n.label}</strong> <code>{n.id}</code>{' '}
              <span class="muted">{n.description}</span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Reveals">
        <ErrorBox error={reveals.error} />
        <ul>{(reveals.data?.reveals ?? []).map((r) => <li key={`${r.domain}.${r.name}`}><strong>{r.name}</strong> ({r.domain}) <span class="muted">{r.metrics.join(', ')}</span></li>)}</ul>
      </Section>
      <Section title="Deployments">
        <ErrorBox error={deployments.error} />
        <table aria-label="Deployments">
          <thead><tr><th scope="col">When</th><th scope="col">Project</th><th scope="col">By</th><th scope="col">Changed nodes</th></tr></thead>
          <tbody>
            {deployments.items.map((d) => (
              <tr key={d.id}><td>{new Date(d.deployed_at).toLocaleString()}</td><td>{d.project}</td><td>{d.deployed_by}</td><td>{d.changed_nodes.join(', ') || '—'}{d.pr_url ? <> · <a href={d.pr_url}>PR</a></> : null}</td></tr>
            ))}
          </tbody>
        </table>
        <LoadMore list={deployments} what="deployments" />
      </Section>
    </div>
  );
}
