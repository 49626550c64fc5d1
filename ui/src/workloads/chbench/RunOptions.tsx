import type { RunOptionsProps } from '../types.js';
import { useCapabilities } from '../../state/capabilities.js';
import { KEY_THINK_ROWS } from '../tprocc/form.js';
import { MixWeights } from '../tprocc/MixWeights.js';
import { ANALYTIC_FIELDS, RUN_FIELDS } from './form.js';
import { chbenchAnalyticOnly, chbenchDop } from './jobs.js';

/**
 * The Run page's CH-benCHmark fields: TPROC-C's timed driver options for the
 * transactional VUs (keying and thinking while on, the transaction mix), then
 * the analytic streams; DOP only where the engine has a degree of parallelism.
 */
export function ChbenchRunOptions({ engine, field, values, setValue }: RunOptionsProps) {
  const caps = useCapabilities();
  const dop = chbenchDop(engine, caps);
  const analytic = ANALYTIC_FIELDS.filter((n) => n !== 'chbench.dop' || dop);
  const streams = Number(values['chbench.analyticStreams']);
  // Where the engine runs the analytic streams alone (DuckDB), the VUs field says so (capabilities' limited.chbench); its default is 0.
  const e = caps?.engines.find((x) => x.engine === engine);
  const vusHint = e && chbenchAnalyticOnly(engine, caps) ? `0 on ${e.displayName}: it runs the analytic streams alone, no TPROC-C transactions (the Target page's card says why)` : undefined;
  return (
    <>
      <div className="form-grid">{RUN_FIELDS.map((n) => (n === 'vus' && vusHint ? field(n, vusHint) : field(n)))}</div>
      <fieldset className="mix" data-testid="analytic-streams">
        <legend>Analytic streams</legend>
        <p className="help">
          Each stream loops over the 22 CH-benCHmark queries on the same schema while the virtual users run their transactions, in the same measured window; their
          output follows the transactional VUs' (VU {String((Number(values['vus']) || 0) + 1)} on).
          {streams === 0 ? ' With 0 streams the run is the transactions alone: the baseline to compare the interference against.' : ''}
        </p>
        <div className="form-grid">{analytic.map((n) => field(n))}</div>
      </fieldset>
      {values['keyAndThink'] === true && (
        <fieldset className="mix key-think" data-testid="key-think-table">
          <legend>Keying and thinking times (seconds)</legend>
          <table className="key-think-table">
            <thead>
              <tr>
                <th scope="col">Transaction</th>
                <th scope="col">Keying (s)</th>
                <th scope="col">Mean thinking (s)</th>
              </tr>
            </thead>
            <tbody>
              {KEY_THINK_ROWS.map((r) => (
                <tr key={r.type}>
                  <th scope="row">{r.label}</th>
                  <td>{field(r.keying, '')}</td>
                  <td>{field(r.think, '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </fieldset>
      )}
      <MixWeights field={field} values={values} setValue={setValue} />
    </>
  );
}
