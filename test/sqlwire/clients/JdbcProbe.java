// A JDBC client of the SQL interface, run with `java -cp postgresql.jar JdbcProbe.java <url> <key>`: it
// prints what a BI tool reads through DatabaseMetaData, then a PreparedStatement's rows, executed
// more times than pgJDBC's prepareThreshold (so the driver switches to a named server-side statement).
import java.sql.*;
import java.util.Properties;

public class JdbcProbe {
  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.setProperty("user", "analyst");
    props.setProperty("password", args[1]);
    try (Connection conn = DriverManager.getConnection(args[0], props)) {
      DatabaseMetaData meta = conn.getMetaData();
      System.out.println("product " + meta.getDatabaseProductName() + " " + meta.getDatabaseMajorVersion());
      try (ResultSet rs = meta.getSchemas()) {
        while (rs.next()) System.out.println("schema " + rs.getString("TABLE_SCHEM"));
      }
      try (ResultSet rs = meta.getTables(null, "public", "%", new String[] { "TABLE" })) {
        while (rs.next()) System.out.println("table " + rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + " | " + rs.getString("REMARKS"));
      }
      try (ResultSet rs = meta.getColumns(null, "public", "orders", "%")) {
        while (rs.next()) System.out.println("column " + rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " | " + rs.getString("REMARKS"));
      }
      int types = 0;
      try (ResultSet rs = meta.getTypeInfo()) {
        while (rs.next()) types++;
      }
      System.out.println("types " + types);
      try (PreparedStatement ps = conn.prepareStatement("SELECT status, MEASURE(order_count) AS n, SUM(gross_revenue) AS revenue FROM orders WHERE channel = ? GROUP BY status ORDER BY status")) {
        for (int run = 1; run <= 7; run++) {
          ps.setString(1, args[2]);
          try (ResultSet rs = ps.executeQuery()) {
            StringBuilder line = new StringBuilder("run " + run + ":");
            while (rs.next()) line.append(" ").append(rs.getString(1)).append("=").append(rs.getLong(2)).append("/").append(rs.getBigDecimal(3));
            System.out.println(line);
          }
        }
      }
      try (Statement st = conn.createStatement()) {
        st.executeQuery("SELECT MEASURE(order_count) FROM ordres");
      } catch (SQLException e) {
        System.out.println("error " + e.getSQLState() + " | " + e.getMessage().replace('\n', ' '));
      }
    }
  }
}
