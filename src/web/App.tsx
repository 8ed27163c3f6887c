/** The hosted verification page. Screens per node type arrive with the hosted-page issue. */
export function App() {
  return (
    <main>
      <h1>Identity verification</h1>
      <p role="status">Preparing your verification…</p>
    </main>
  );
}
