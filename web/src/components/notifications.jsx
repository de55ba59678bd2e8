export function Notifications({ items }) {
  return (
    <section class="panel notifications">
      <h3>Notifications</h3>
      {items.length === 0 ? (
        <p class="muted">none yet</p>
      ) : (
        <ul>
          {items.map((item, index) => (
            <li key={index} class={`note level-${item.level}`} data-testid="notification">
              <strong>{item.title}</strong> {item.message}
              <div class="muted">
                {item.hook} · {new Date(item.at).toLocaleTimeString()}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
