// Rendered with HTTP 403 when a guard calls forbidden() (requireRole, requirePermission).
export default function Forbidden() {
  return (
    <>
      <h1>403</h1>
      <p className="error" role="alert">
        You may not see this page.
      </p>
    </>
  );
}
