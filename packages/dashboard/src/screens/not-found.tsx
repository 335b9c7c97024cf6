import { useEffect } from 'react';
import { Link } from 'react-router';

export default function NotFound() {
  useEffect(() => {
    document.title = 'Not found · Signpost';
  }, []);
  return (
    <section className="card narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no dashboard page here. <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
